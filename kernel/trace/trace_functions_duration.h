/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface between the function_duration tracer and its
 * per-function statistics, with what the return callback inlines: the
 * self-time clock and the counting of a call.
 */
#ifndef _TRACE_FUNCTIONS_DURATION_H
#define _TRACE_FUNCTIONS_DURATION_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/jump_label.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/minmax.h>
#include <linux/smp.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <asm/barrier.h>
#include <asm/local.h>
#include <asm/local64.h>

struct dentry;
struct trace_array;

/*
 * Durations are counted in log-linear buckets: exact below 4 ns, then
 * each power of two is split into 4 equal buckets. A bucket is reported
 * by its midpoint, at most 1/8 (12.5%) away from any value in it.
 * Durations of 2^34 ns (about 17 s) and more share the last bucket,
 * which is reported as the largest duration seen.
 */
#define FUNC_DURATION_SUB_BITS		2
#define FUNC_DURATION_SUB_BUCKETS	BIT(FUNC_DURATION_SUB_BITS)
#define FUNC_DURATION_MAX_ORDER		34
#define FUNC_DURATION_NR_BUCKETS					\
	(FUNC_DURATION_SUB_BUCKETS +					\
	 (FUNC_DURATION_MAX_ORDER - FUNC_DURATION_SUB_BITS) *		\
	 FUNC_DURATION_SUB_BUCKETS + 1)
#define FUNC_DURATION_OVERFLOW_BUCKET	(FUNC_DURATION_NR_BUCKETS - 1)

/* Functions tracked per instance unless stats_max_functions says otherwise */
#define FUNC_DURATION_STATS_DEFAULT_MAX	1024
#define FUNC_DURATION_STATS_LIMIT	65536

/* Longest write accepted by the control files: U64_MAX has 20 digits. */
#define FUNC_DURATION_INPUT_MAX	24

/* Errors logged to error_log, see func_duration_errs[] */
enum func_duration_err {
	FUNC_DURATION_ERR_NUMBER,
	FUNC_DURATION_ERR_TOO_LONG,
	FUNC_DURATION_ERR_NO_SLOT,
	FUNC_DURATION_ERR_NOMEM,
	FUNC_DURATION_ERR_RESET,
	FUNC_DURATION_ERR_BOOL,
	FUNC_DURATION_ERR_MAX_FUNCS,
	FUNC_DURATION_ERR_PREEMPT_RT,
};

int func_duration_get_input(struct trace_array *tr, const char *file,
			    const char __user *ubuf, size_t cnt,
			    char *buf, size_t size);
int func_duration_get_bool(struct trace_array *tr, const char *file,
			   const char __user *ubuf, size_t cnt, bool *val);
ssize_t func_duration_read_number(char __user *ubuf, size_t cnt, loff_t *ppos,
				  u64 val);
void func_duration_log_err(struct trace_array *tr, const char *file,
			   const char *input, enum func_duration_err err);
void func_duration_log_input_err(struct trace_array *tr, const char *file,
				 char *input, enum func_duration_err err);

/**
 * func_duration_bucket - the histogram bucket of a duration
 * @ns: the duration in nanoseconds
 *
 * Return: the index of the log-linear bucket that counts @ns.
 */
static inline unsigned int func_duration_bucket(u64 ns)
{
	unsigned int order;

	if (ns < FUNC_DURATION_SUB_BUCKETS)
		return ns;

	order = ilog2(ns);
	if (order >= FUNC_DURATION_MAX_ORDER)
		return FUNC_DURATION_OVERFLOW_BUCKET;

	return FUNC_DURATION_SUB_BUCKETS +
	       (order - FUNC_DURATION_SUB_BITS) * FUNC_DURATION_SUB_BUCKETS +
	       ((ns >> (order - FUNC_DURATION_SUB_BITS)) &
		(FUNC_DURATION_SUB_BUCKETS - 1));
}

u64 func_duration_bucket_lower(unsigned int bucket);
u64 func_duration_bucket_value(unsigned int bucket);
u64 func_duration_percentile(const u64 *buckets, u64 min, u64 max,
			     unsigned int pct);
u64 func_duration_stddev(const u64 *buckets, u64 min, u64 max, u64 mean);

/* The parts of one call's duration, in ns (see the breakdown below) */
struct func_duration_parts {
	u64	running;
	u64	runnable;
	u64	blocked;
	u64	irq;
};

/* The counts of one function, summed over the CPUs */
struct func_duration_row {
	unsigned long	func;
	char		*name;		/* of an unloaded function, or NULL */
	u64		calls;
	u64		total;
	u64		self;
	u64		min;
	u64		max;
	u64		bd_calls;	/* with a breakdown, which the next sum */
	u64		running;
	u64		runnable;
	u64		blocked;
	u64		irq;
	u64		buckets[FUNC_DURATION_NR_BUCKETS];
};

/*
 * The self-time clock, with 64-bit longs: above the TRACE_GRAPH_* flags,
 * an fgraph_ops' task variable counts the time spent in the task's
 * returned counted calls, in ns modulo 2^59. A counted call notes the
 * clock on entry (its mark, kept on the shadow stack). On return, the
 * clock minus its mark is the time of its children, and the clock is set
 * to the mark plus the call's own duration, which replaces its children's
 * share. Nothing is searched, and no pointer is kept: a call whose return
 * callback never ran (the tracer was restarted meanwhile) can only skew
 * self times, which are clamped to the duration.
 */
#define FUNC_DURATION_CLOCK_SHIFT	(TRACE_GRAPH_NOTRACE_BIT + 1)
#define FUNC_DURATION_CLOCK_MASK	\
	GENMASK_ULL(BITS_PER_LONG - FUNC_DURATION_CLOCK_SHIFT - 1, 0)
/* The TRACE_GRAPH_* flags below the clock */
#define FUNC_DURATION_FLAGS_MASK	GENMASK(FUNC_DURATION_CLOCK_SHIFT - 1, 0)

/* The mark of a call entered now */
static inline u64 func_duration_clock_mark(unsigned long task_var)
{
	return task_var >> FUNC_DURATION_CLOCK_SHIFT;
}

/* Advance the clock for a call returning, and return its children's time */
static inline u64 func_duration_clock_return(unsigned long *task_var,
					     u64 mark, u64 duration)
{
	u64 children = (func_duration_clock_mark(*task_var) - mark) &
		       FUNC_DURATION_CLOCK_MASK;

	*task_var = (*task_var & FUNC_DURATION_FLAGS_MASK) |
		    (unsigned long)(mark + duration) << FUNC_DURATION_CLOCK_SHIFT;

	return children;
}

/*
 * One function on one CPU: 616 bytes with 64-bit longs. A bucket has 32
 * bits (atomic_t: an increment safe against interrupts and NMIs on this
 * CPU, on every architecture) and wraps after 2^32 calls of one function
 * in one bucket on one CPU; the other counters have 64.
 */
struct func_duration_counts {
	local64_t	calls;
	local64_t	total;
	local64_t	self;
	local64_t	min_inv;	/* ~min: zeroed memory means no call yet */
	local64_t	max;
	local64_t	bd_calls;	/* the calls with a breakdown: */
	local64_t	running;	/* the sums of their parts */
	local64_t	runnable;
	local64_t	blocked;
	local64_t	irq;
	atomic_t	buckets[FUNC_DURATION_NR_BUCKETS];
};

/*
 * The rows of a CPU are allocated in chunks, as functions are claimed:
 * 64 rows are 10 pages with 64-bit longs.
 */
#define FUNC_DURATION_CHUNK_SHIFT	6
#define FUNC_DURATION_CHUNK_ROWS	BIT(FUNC_DURATION_CHUNK_SHIFT)

/* Calls that were seen but could not be counted, per CPU */
struct func_duration_drops {
	local_t		over_cap;	/* function beyond stats_max_functions */
	unsigned long	nmi;		/* NMI: counters not NMI safe, or row pending */
	local_t		no_stack;	/* no room for self time on the shadow stack */
	local_t		unordered;	/* returned "before" it was called */
	local_t		no_mem;		/* its row not allocated on this CPU yet */
};

/*
 * A slot of the hash table is claimed by the cmpxchg() of a function into
 * slot_funcs[]; the claimer then publishes the row in slots[]. Until then
 * slots[] holds 0, and FUNC_DURATION_SLOT_FULL if no row was left: the
 * function's calls are counted as over the limit.
 */
#define FUNC_DURATION_SLOT_FULL		(-1)

struct func_duration_stats {
	unsigned int			max;		/* rows */
	unsigned int			hash_mask;
	atomic_t			nr_funcs;	/* rows claimed */
	unsigned long			*funcs;		/* row -> function */
	char				**names;	/* row -> name, once unloaded */
	unsigned long			*slot_funcs;	/* hash -> function */
	atomic_t			*slots;		/* hash -> row + 1, see above */
	/* per CPU: row / FUNC_DURATION_CHUNK_ROWS -> chunk, or NULL */
	struct func_duration_counts * __percpu *chunks;
	struct func_duration_drops __percpu *drops;
	atomic_long_t			bytes;		/* all of the above */
	unsigned int			nr_chunks;	/* allocated per online CPU */
	struct list_head		list;		/* in the live statistics */
	struct irq_work			grow_irq;	/* the counting needs rows */
	struct work_struct		grow_work;	/* which this allocates */
	unsigned long			grow_pending;	/* bit 0: asked, not started */
	unsigned long			grow_retry;	/* jiffies: a chunk failed */
	u64				start_ns;
	u64				stop_ns;
	bool				running;
	unsigned long			gen;		/* counts the clears */
	struct kref			ref;		/* the tracer's, a reader's */
};

struct func_duration_stats *func_duration_stats_create(unsigned int max,
						       unsigned int nr_funcs);

#ifdef CONFIG_FUNCTION_DURATION_DEBUG_HOLD
/* CPU + 1 whose next chunk allocation fails, for tests; 0: none */
extern u32 func_duration_fail_chunk_cpu;

static inline bool func_duration_debug_fail_chunk(int cpu)
{
	u32 want = cpu + 1;

	return READ_ONCE(func_duration_fail_chunk_cpu) == want &&
	       cmpxchg(&func_duration_fail_chunk_cpu, want, 0) == want;
}
#else
static inline bool func_duration_debug_fail_chunk(int cpu)
{
	return false;
}
#endif
void func_duration_stats_flush(struct func_duration_stats *stats);
void func_duration_stats_destroy(struct func_duration_stats *stats);
unsigned int func_duration_stats_sum(struct func_duration_stats *stats,
				     unsigned long func,
				     struct func_duration_row *row);
int func_duration_stats_start(struct trace_array *tr);
void func_duration_stats_stop(struct trace_array *tr);
int func_duration_stats_row(struct func_duration_stats *stats,
			    unsigned long func);
#if IS_ENABLED(CONFIG_KUNIT)
void func_duration_stats_claiming(struct func_duration_stats *stats,
				  unsigned long func);
#endif
void func_duration_stats_drop_no_stack(struct func_duration_stats *stats);
void func_duration_stats_drop_unordered(struct func_duration_stats *stats);
void func_duration_stats_drop_no_mem(struct func_duration_stats *stats,
				     int row);
void func_duration_stats_init_tracefs(struct trace_array *tr,
				      struct dentry *dir);
void func_duration_synchronize(void);

/**
 * func_duration_stats_add - count one call
 * @stats: the statistics of the instance that traced it
 * @func: the function called
 * @duration: how long it took, in ns
 * @self: the part of @duration not spent in traced children
 * @parts: its breakdown, or NULL if it has none
 *
 * Called from the return callback with preemption disabled. Takes no
 * lock and allocates nothing: safe in any context, NMI included. Inline,
 * for a function whose row is published in the first slot it hashes to;
 * anything else goes through func_duration_stats_row(), which counts the
 * calls it drops. A row not allocated on this CPU yet goes through
 * func_duration_stats_drop_no_mem().
 */
static __always_inline void
func_duration_stats_add(struct func_duration_stats *stats, unsigned long func,
			u64 duration, u64 self,
			const struct func_duration_parts *parts)
{
	struct func_duration_counts *c, *chunk;
	unsigned int h;
	s64 old, new;
	int slot, row;

	/*
	 * A lock-emulated cmpxchg, or 64-bit atomics made of a spinlock
	 * (local64_t on 32-bit), would deadlock against the code the NMI
	 * hit: the ring buffer's condition.
	 */
	if ((!IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) ||
	     IS_ENABLED(CONFIG_GENERIC_ATOMIC64)) && in_nmi()) {
		this_cpu_ptr(stats->drops)->nmi++;
		return;
	}

	h = hash_long(func, 32) & stats->hash_mask;
	slot = atomic_read(&stats->slots[h]);
	if (likely(READ_ONCE(stats->slot_funcs[h]) == func && slot > 0))
		row = slot - 1;
	else
		row = func_duration_stats_row(stats, func);
	if (unlikely(row < 0))
		return;

	/*
	 * Published with smp_store_release() once zeroed; this_cpu_read() is
	 * a READ_ONCE(), and the counters are reached through its result.
	 */
	chunk = this_cpu_read(stats->chunks[(unsigned int)row >>
					    FUNC_DURATION_CHUNK_SHIFT]);
	if (unlikely(!chunk)) {
		func_duration_stats_drop_no_mem(stats, row);
		return;
	}
	c = &chunk[row & (FUNC_DURATION_CHUNK_ROWS - 1)];
	local64_inc(&c->calls);
	local64_add(duration, &c->total);
	local64_add(self, &c->self);
	atomic_inc(&c->buckets[func_duration_bucket(duration)]);
	if (parts) {
		local64_inc(&c->bd_calls);
		local64_add(parts->running, &c->running);
		local64_add(parts->runnable, &c->runnable);
		local64_add(parts->blocked, &c->blocked);
		local64_add(parts->irq, &c->irq);
	}

	new = ~duration;
	old = local64_read(&c->min_inv);
	while ((u64)new > (u64)old && !local64_try_cmpxchg(&c->min_inv, &old, new))
		;
	new = duration;
	old = local64_read(&c->max);
	while ((u64)new > (u64)old && !local64_try_cmpxchg(&c->max, &old, new))
		;
}

/* ---------------------------------------------------------------------
 * The breakdown of a call's duration: how much of it the task ran, was
 * runnable (preempted, or woken and waiting for a CPU), was blocked
 * (switched out asleep, until its wakeup), and spent in interrupts taken
 * on its CPU while it ran.
 *
 * Each task keeps running totals of the time it was off its CPU, of the
 * part of that time it spent waiting on runqueues, and of its interrupts
 * (struct func_duration_task, in its shadow stack's task area), which
 * the sched_switch and interrupt probes advance; a call notes them on
 * entry and takes the difference on return. Blocked is the time off the CPU
 * not spent waiting, running what is left of the duration, so the four
 * parts always add up to it exactly. Clocks of different CPUs (a
 * migration) can make a part look longer than the call: each is clamped
 * to what the others leave.
 *
 * The wait is the scheduler's (sched_info), read at the switch-in: no
 * probe runs at wakeups. It counts from when the task was queued,
 * preempted or woken, to the switch-in; a task preempted while it had
 * set a sleeping state is not queued for the scheduler, and is blocked
 * for the breakdown too.
 *
 * The totals are valid for one generation of the probes: zeroed memory
 * is generation 0, which is never live, and a restart of the probes
 * starts a new one. A call noted in another generation than the one its
 * return sees has no breakdown.
 */
struct func_duration_task {
	u64	off;		/* ns off its CPU, total of this generation */
	u64	runnable;	/* ns of @off it waited on runqueues */
	u64	irq;		/* ns in interrupts while it was current */
	u64	since;		/* when it was last switched out */
	u64	run_delay;	/* the scheduler's, when it was switched out */
	u32	gen;		/* generation of the above; 0: none */
};

/* What a call notes on entry, on the shadow stack */
struct func_duration_bd_snap {
	u64	off;
	u64	runnable;
	u64	irq;
	u32	gen;
};

/* The outermost interrupt in progress on a CPU */
struct func_duration_cpu_irq {
	u64	start;
	u32	depth;
	u32	gen;
};

/* The generation live now, 0 while the probes are not all live */
extern u32 func_duration_sched_gen;
/* On while the probes are registered: the callbacks test nothing else */
DECLARE_STATIC_KEY_FALSE(func_duration_breakdown_key);
int func_duration_sched_get(void);
void func_duration_sched_put(void);

/* @now - @then, or 0 if the clocks say @now came first */
static inline u64 func_duration_since(u64 now, u64 then)
{
	return now > then ? now - then : 0;
}

/*
 * The interrupt total is written by interrupts on the task's CPU, which
 * can split a 64-bit read on a 32-bit CPU: read until two reads agree.
 */
static inline u64 func_duration_task_irq(struct func_duration_task *t)
{
	u64 irq;

	if (IS_ENABLED(CONFIG_64BIT))
		return READ_ONCE(t->irq);
	do {
		irq = READ_ONCE(t->irq);
		barrier();
	} while (irq != READ_ONCE(t->irq));

	return irq;
}

/*
 * Start generation @gen of @t's totals at @now. Only the CPU @t runs on,
 * or is switched on or off, writes @t, with interrupts disabled; the
 * scheduler orders a migration's switch-out before its switch-in.
 */
static inline void func_duration_task_begin(struct func_duration_task *t,
					    u32 gen, u64 now)
{
	t->off = 0;
	t->runnable = 0;
	WRITE_ONCE(t->irq, 0);
	t->since = now;
	WRITE_ONCE(t->gen, gen);
}

/*
 * @t leaves its CPU at @now, having waited @run_delay on runqueues in all
 * (its sched_info.run_delay).
 */
static inline void func_duration_task_switch_out(struct func_duration_task *t,
						 u32 gen, u64 now,
						 u64 run_delay)
{
	if (t->gen != gen)
		func_duration_task_begin(t, gen, now);
	t->since = now;
	t->run_delay = run_delay;
}

/*
 * @t gets a CPU at @now, having waited @run_delay on runqueues in all and
 * been queued on this one at @queued (sched_info.last_queued, on the
 * clock of @now; 0: not queued). Since its switch-out it waited on the
 * runqueues it has left (a migration adds that wait to @run_delay), then
 * on this one from @queued on. A task last seen in an older generation
 * starts this one now: the time it was away is unknown, and so is the
 * breakdown of any call it is in.
 */
static inline void func_duration_task_switch_in(struct func_duration_task *t,
						u32 gen, u64 now, u64 run_delay,
						u64 queued)
{
	u64 away, waited;

	if (t->gen != gen) {
		func_duration_task_begin(t, gen, now);
		return;
	}
	away = func_duration_since(now, t->since);
	waited = func_duration_since(run_delay, t->run_delay);
	if (queued)
		waited += func_duration_since(now, queued);
	t->off += away;
	t->runnable += min(waited, away);
}

/* An interrupt of @ns ended on @t's CPU while @t was its current task */
static inline void func_duration_task_add_irq(struct func_duration_task *t,
					      u32 gen, u64 ns)
{
	if (READ_ONCE(t->gen) == gen)
		WRITE_ONCE(t->irq, t->irq + ns);
}

/*
 * An interrupt (hard or soft) begins on this CPU at @now. Interrupts
 * nest (a hard one in a soft one): only the outermost is timed. Called
 * with interrupts disabled.
 */
static inline void func_duration_irq_enter(struct func_duration_cpu_irq *c,
					   u32 gen, u64 now)
{
	if (c->gen != gen) {
		c->gen = gen;
		c->depth = 0;
	}
	if (c->depth++ == 0)
		c->start = now;
}

/*
 * An interrupt ends at @now. Return how long the outermost one took, once
 * it ends, and 0 before then or for an end whose beginning was not seen.
 */
static inline u64 func_duration_irq_exit(struct func_duration_cpu_irq *c,
					 u32 gen, u64 now)
{
	if (c->gen != gen || !c->depth || --c->depth)
		return 0;
	return func_duration_since(now, c->start);
}

/*
 * A call of the running task @t is entered in generation @gen (0: the
 * probes are not live): note its totals. Called from the task itself, or
 * from an interrupt or NMI on its CPU, with interrupts disabled since
 * @gen was read: every other writer of @t->gen runs on this CPU with
 * interrupts disabled too, so @t cannot change generation meanwhile. A
 * task not seen in @gen yet is running, and starts @gen now, except in
 * an NMI, which may have interrupted a probe writing @t (its call then
 * has no breakdown).
 */
static inline void func_duration_bd_enter(struct func_duration_task *t,
					  u32 gen, struct func_duration_bd_snap *snap)
{
	snap->gen = 0;
	if (!gen)
		return;
	if (READ_ONCE(t->gen) != gen) {
		if (in_nmi())
			return;
		func_duration_task_begin(t, gen, 0);
	}
	snap->off = t->off;
	snap->runnable = t->runnable;
	snap->irq = func_duration_task_irq(t);
	snap->gen = gen;
}

/**
 * func_duration_bd_return - the breakdown of a call that returns
 * @t: the task's totals
 * @gen: the generation live now (0: none)
 * @snap: what the call noted on entry
 * @duration: the call's duration, in ns
 * @parts: where to put its parts, which may be where @snap is
 *
 * Return: true with @parts adding up to @duration, or false if the call
 * has no breakdown (the probes were not live all along).
 */
static inline bool func_duration_bd_return(struct func_duration_task *t,
					   u32 gen,
					   const struct func_duration_bd_snap *snap,
					   u64 duration,
					   struct func_duration_parts *parts)
{
	u64 off, runnable, irq;

	if (!gen || snap->gen != gen || READ_ONCE(t->gen) != gen)
		return false;

	/* All read before @parts is written: it may take @snap's place */
	off = min(func_duration_since(t->off, snap->off), duration);
	runnable = min(func_duration_since(t->runnable, snap->runnable), off);
	irq = min(func_duration_since(func_duration_task_irq(t), snap->irq),
		  duration - off);

	parts->running = duration - off - irq;
	parts->runnable = runnable;
	parts->blocked = off - runnable;
	parts->irq = irq;

	return true;
}

#endif /* _TRACE_FUNCTIONS_DURATION_H */
