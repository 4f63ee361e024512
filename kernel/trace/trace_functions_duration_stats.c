// SPDX-License-Identifier: GPL-2.0
/*
 * Per-function duration statistics of the function_duration tracer.
 *
 * Every call the tracer of an instance traces is counted here, whatever
 * its threshold: calls, total and self time, min, max and a log-linear
 * histogram, per function and per CPU, without locks. The memory is
 * allocated when the tracer starts and bounded by stats_max_functions;
 * calls of functions beyond it are counted, not kept. The results are
 * read from function_duration/stats and function_duration/hist.
 *
 * Functions are mapped to rows by one open-addressing hash table per
 * instance, shared by all CPUs: a function's slot is claimed once with
 * cmpxchg() of its address, and only the claimer takes a row for it; the
 * slot never changes until the statistics are cleared while the tracer
 * is stopped. The counters of a row are per CPU and updated with local
 * ops and per-CPU atomics, which are safe against interrupts and NMIs on
 * the same CPU.
 *
 * The rows of a CPU are allocated in chunks, for the online CPUs only:
 * at the start, as many as the instance's filter names functions; then,
 * when functions are claimed past them, by a work item, since the
 * counting cannot allocate; and for a CPU that comes online, by a CPU
 * hotplug callback. A CPU that goes offline keeps its rows.
 */
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/tracefs.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <asm/local64.h>

#include "trace.h"
#include "trace_functions_duration.h"

/* Serializes starting, clearing, reading and freeing the statistics */
static DEFINE_MUTEX(func_duration_stats_mutex);

/*
 * Serializes the allocation of rows and the list of the live statistics,
 * which the CPU hotplug callback walks. Taken inside cpus_read_lock() and
 * the mutex above, never around them.
 */
static DEFINE_MUTEX(func_duration_chunks_mutex);
static LIST_HEAD(func_duration_stats_list);

static unsigned int func_duration_stats_nr_rows(struct func_duration_stats *stats);

static struct func_duration_stats *
func_duration_stats_locked(struct trace_array *tr)
{
	return rcu_dereference_protected(tr->func_duration_stats,
					 lockdep_is_held(&func_duration_stats_mutex));
}

/* Top-level stats_max_functions from "function_duration_stats_max=" */
static unsigned int func_duration_boot_stats_max __initdata;

/* ---------------------------------------------------------------------
 * Buckets and the figures derived from them
 */

/**
 * func_duration_bucket_lower - the smallest duration a bucket counts
 * @bucket: a bucket index below %FUNC_DURATION_NR_BUCKETS
 *
 * Return: the lower bound of @bucket in nanoseconds.
 */
u64 func_duration_bucket_lower(unsigned int bucket)
{
	unsigned int order, sub;

	if (bucket < FUNC_DURATION_SUB_BUCKETS)
		return bucket;
	if (bucket >= FUNC_DURATION_OVERFLOW_BUCKET)
		return 1ULL << FUNC_DURATION_MAX_ORDER;

	bucket -= FUNC_DURATION_SUB_BUCKETS;
	order = bucket / FUNC_DURATION_SUB_BUCKETS + FUNC_DURATION_SUB_BITS;
	sub = bucket % FUNC_DURATION_SUB_BUCKETS;

	return (u64)(FUNC_DURATION_SUB_BUCKETS + sub) <<
	       (order - FUNC_DURATION_SUB_BITS);
}

/**
 * func_duration_bucket_value - the duration a bucket stands for
 * @bucket: a bucket index below %FUNC_DURATION_NR_BUCKETS
 *
 * Return: the midpoint of @bucket, rounded down: within 12.5% of every
 * duration the bucket counts. The overflow bucket, which has no upper
 * bound, gives its lower bound.
 */
u64 func_duration_bucket_value(unsigned int bucket)
{
	u64 lower = func_duration_bucket_lower(bucket);
	u64 width;

	if (bucket >= FUNC_DURATION_OVERFLOW_BUCKET)
		return lower;
	width = func_duration_bucket_lower(bucket + 1) - lower;

	return lower + (width - 1) / 2;
}

/* The value of @bucket, within what was seen. */
static u64 func_duration_clamped_value(unsigned int bucket, u64 min, u64 max)
{
	if (bucket >= FUNC_DURATION_OVERFLOW_BUCKET)
		return max;
	return clamp(func_duration_bucket_value(bucket), min, max);
}

/**
 * func_duration_percentile - a percentile of a histogram
 * @buckets: %FUNC_DURATION_NR_BUCKETS counts
 * @min: the smallest duration counted
 * @max: the largest duration counted
 * @pct: the percentile, 0 to 100
 *
 * Return: the value of the bucket holding the @pct-th percentile of the
 * counted durations (the smallest value that at least @pct percent of
 * them do not exceed), clamped to [@min, @max]; 0 if nothing is counted.
 */
u64 func_duration_percentile(const u64 *buckets, u64 min, u64 max,
			     unsigned int pct)
{
	u64 count = 0, rank, seen = 0;
	unsigned int i;

	for (i = 0; i < FUNC_DURATION_NR_BUCKETS; i++)
		count += buckets[i];
	if (!count)
		return 0;

	/* The rank of the percentile among the sorted durations, from 1 */
	if (count <= div64_u64(U64_MAX - 99, 100))
		rank = div64_u64(count * pct + 99, 100);
	else
		rank = div64_u64(count, 100) * pct;
	rank = max_t(u64, rank, 1);

	for (i = 0; i < FUNC_DURATION_NR_BUCKETS; i++) {
		seen += buckets[i];
		if (seen >= rank)
			return func_duration_clamped_value(i, min, max);
	}

	return max;
}

/* How far the value of @bucket is from @mean */
static u64 func_duration_bucket_dev(unsigned int bucket, u64 min, u64 max,
				    u64 mean)
{
	u64 value = func_duration_clamped_value(bucket, min, max);

	return value > mean ? value - mean : mean - value;
}

/*
 * The sum over the buckets of count * (value - mean)^2, divided by the
 * number of durations, when the sum does not fit in 64 bits: bucket by
 * bucket, saturating at U64_MAX.
 */
static u64 func_duration_variance_wide(const u64 *buckets, u64 min, u64 max,
				       u64 mean, u64 count)
{
	u64 var = 0, dev, hi, term;
	unsigned int i;

	for (i = 0; i < FUNC_DURATION_NR_BUCKETS; i++) {
		if (!buckets[i])
			continue;
		dev = func_duration_bucket_dev(i, min, max, mean);
		/*
		 * dev^2 / count must fit in 64 bits for mul_u64_u64_div_u64(),
		 * which traps on x86 otherwise: (hi + 1)^2 <= count is enough.
		 */
		hi = (dev >> 32) + 1;
		if (hi > 1 && (hi > U32_MAX || hi * hi > count))
			return U64_MAX;
		term = mul_u64_u64_div_u64(dev, dev, count);
		if (check_mul_overflow(term, buckets[i], &term) ||
		    check_add_overflow(var, term, &var))
			return U64_MAX;
	}

	return var;
}

/**
 * func_duration_stddev - the standard deviation of a histogram
 * @buckets: %FUNC_DURATION_NR_BUCKETS counts
 * @min: the smallest duration counted
 * @max: the largest duration counted
 * @mean: the exact mean of the counted durations
 *
 * Each duration is taken as the value of its bucket, so the result has
 * the resolution of the buckets. It saturates at U32_MAX ns (4.29 s)
 * rather than overflow.
 *
 * Return: the population standard deviation in ns; 0 if nothing is
 * counted.
 */
u64 func_duration_stddev(const u64 *buckets, u64 min, u64 max, u64 mean)
{
	u64 count = 0, sum = 0, dev, term;
	unsigned int i;

	for (i = 0; i < FUNC_DURATION_NR_BUCKETS; i++)
		count += buckets[i];
	if (!count)
		return 0;

	/* Exact while the sum of squares fits in 64 bits */
	for (i = 0; i < FUNC_DURATION_NR_BUCKETS; i++) {
		if (!buckets[i])
			continue;
		dev = func_duration_bucket_dev(i, min, max, mean);
		if (dev > U32_MAX ||
		    check_mul_overflow(dev * dev, buckets[i], &term) ||
		    check_add_overflow(sum, term, &sum))
			return int_sqrt64(func_duration_variance_wide(buckets, min,
								      max, mean,
								      count));
	}

	return int_sqrt64(div64_u64(sum, count));
}

/* ---------------------------------------------------------------------
 * Counting: called from the function graph callbacks, in any context.
 */

/**
 * func_duration_stats_claiming - a KUnit hook inside a row claim
 * @stats: the statistics of the instance
 * @func: the function whose row is being claimed
 *
 * Called while a context claims a row for @func, in the window where
 * another context may claim the same function, so that a test can hold
 * the window open. Compiled out without CONFIG_KUNIT.
 */
VISIBLE_IF_KUNIT void
func_duration_stats_claiming(struct func_duration_stats *stats,
			     unsigned long func)
{
	/* kunit_find_resource() takes a spinlock the NMI may have hit */
	if (in_nmi())
		return;
	KUNIT_STATIC_STUB_REDIRECT(func_duration_stats_claiming, stats, func);
}

/*
 * Claim slot @i for @func and publish its row, or FUNC_DURATION_SLOT_FULL
 * if no row is left. Interrupts stay off from the claim to the
 * publication: see func_duration_stats_wait().
 *
 * Return: 0 if the slot was claimed, else the function that holds it.
 */
static unsigned long
func_duration_stats_claim(struct func_duration_stats *stats, unsigned int i,
			  unsigned long func)
{
	unsigned long flags, owner;
	int row;

	local_irq_save(flags);
	owner = cmpxchg(&stats->slot_funcs[i], 0, func);
	if (!owner) {
		func_duration_stats_claiming(stats, func);
		row = atomic_read(&stats->nr_funcs);
		do {
			if (row >= stats->max)
				break;
		} while (!atomic_try_cmpxchg(&stats->nr_funcs, &row, row + 1));

		if (row < stats->max) {
			WRITE_ONCE(stats->funcs[row], func);
			/* The row's function is seen with the slot. */
			atomic_set_release(&stats->slots[i], row + 1);
		} else {
			atomic_set_release(&stats->slots[i],
					   FUNC_DURATION_SLOT_FULL);
		}
	}
	local_irq_restore(flags);

	return owner;
}

/*
 * The row of slot @i, which @func holds, once it is published. This
 * cannot deadlock: the claimer has interrupts off until it publishes, so
 * only an NMI can run on its CPU meanwhile, and an NMI does not wait;
 * everything else waits for a claimer on another CPU, which itself waits
 * for nothing.
 */
static int func_duration_stats_wait(struct func_duration_stats *stats,
				    unsigned int i, unsigned long func)
{
	int slot;

	for (;;) {
		slot = atomic_read_acquire(&stats->slots[i]);
		if (slot)
			break;
		if (in_nmi()) {
			/* Only NMIs write it, and they do not nest. */
			this_cpu_ptr(stats->drops)->nmi++;
			return -1;
		}
		/* The slot was cleared or retired meanwhile. */
		if (READ_ONCE(stats->slot_funcs[i]) != func)
			break;
		cpu_relax();
	}
	if (slot > 0)
		return slot - 1;

	local_inc(&this_cpu_ptr(stats->drops)->over_cap);
	return -1;
}

/**
 * func_duration_stats_row - find or claim the row of a function
 * @stats: the statistics of the instance
 * @func: the function
 *
 * The slow path of func_duration_stats_add(): takes no lock and
 * allocates nothing, safe in any context. Only the context that claims
 * a function's slot takes a row for it; the others wait for that row.
 *
 * Return: the row of @func, claimed if new; -1 if the call is dropped,
 * counted as over the function limit or in NMI.
 */
int func_duration_stats_row(struct func_duration_stats *stats,
			    unsigned long func)
{
	unsigned int i = hash_long(func, 32) & stats->hash_mask;
	unsigned long owner;
	unsigned int probes;

	/* At most a quarter of the slots are used: a free one ends the probing. */
	for (probes = 0; probes <= stats->hash_mask; probes++) {
		owner = READ_ONCE(stats->slot_funcs[i]);
		if (!owner) {
			/* Over the limit, a new function takes no slot. */
			if (atomic_read(&stats->nr_funcs) >= stats->max)
				break;
			/* 0 when this context claimed it */
			owner = func_duration_stats_claim(stats, i, func) ?: func;
		}
		if (owner == func)
			return func_duration_stats_wait(stats, i, func);
		i = (i + 1) & stats->hash_mask;
	}

	local_inc(&this_cpu_ptr(stats->drops)->over_cap);
	return -1;
}

/**
 * func_duration_stats_drop_no_stack - count a call without shadow stack room
 * @stats: the statistics of the instance
 *
 * Called with preemption disabled, from the entry callback.
 */
void func_duration_stats_drop_no_stack(struct func_duration_stats *stats)
{
	local_inc(&this_cpu_ptr(stats->drops)->no_stack);
}

/**
 * func_duration_stats_drop_no_mem - count a call whose row has no memory
 * @stats: the statistics of the instance
 * @row: the row of the call's function
 *
 * The counting never allocates: a row claimed past the chunks allocated
 * asks the work item to allocate more, and its calls are dropped until
 * then. A chunk that this CPU could not get (the work or its coming
 * online failed) is asked for again, at most once a second. Called with
 * preemption disabled, in any context.
 */
void func_duration_stats_drop_no_mem(struct func_duration_stats *stats,
				     int row)
{
	local_inc(&this_cpu_ptr(stats->drops)->no_mem);
	/*
	 * A CPU going offline may be past its last irq_work run: a work
	 * queued there would never run, and nobody could queue another.
	 */
	if (unlikely(!cpu_online(raw_smp_processor_id())))
		return;
	if (row >> FUNC_DURATION_CHUNK_SHIFT < READ_ONCE(stats->nr_chunks) &&
	    time_before(jiffies, READ_ONCE(stats->grow_retry)))
		return;
	/*
	 * Once per growth: the irq_work and the work queueing call traced
	 * functions too, which would ask again from the irq_work itself, and
	 * again, and keep the CPU in interrupts before the work can run.
	 */
	if (!test_and_set_bit(0, &stats->grow_pending))
		irq_work_queue(&stats->grow_irq);
}

/**
 * func_duration_stats_drop_unordered - count a call with a negative duration
 * @stats: the statistics of the instance
 *
 * The trace clock is per CPU: a call that migrated can seem to return
 * before it was made. Called with preemption disabled.
 */
void func_duration_stats_drop_unordered(struct func_duration_stats *stats)
{
	local_inc(&this_cpu_ptr(stats->drops)->unordered);
}

/* ---------------------------------------------------------------------
 * Memory: the rows of each CPU, in chunks
 */

static unsigned int func_duration_chunks(unsigned int rows)
{
	return DIV_ROUND_UP(rows, FUNC_DURATION_CHUNK_ROWS);
}

/* The size of chunk @i: the last one holds only the rows below the limit */
static size_t func_duration_chunk_size(struct func_duration_stats *stats,
				       unsigned int i)
{
	return min_t(unsigned int, stats->max - i * FUNC_DURATION_CHUNK_ROWS,
		     FUNC_DURATION_CHUNK_ROWS) * sizeof(struct func_duration_counts);
}

/* Chunk @i of @cpu, or NULL */
static struct func_duration_counts *
func_duration_stats_chunk(struct func_duration_stats *stats, int cpu,
			  unsigned int i)
{
	/* Pairs with func_duration_stats_grow_cpu(): never read before zeroed */
	return smp_load_acquire(&per_cpu_ptr(stats->chunks, cpu)[i]);
}

/*
 * A zeroed chunk of @size bytes near @cpu; *@bytes is what it takes. A
 * chunk of 64 rows is 10 pages, which vmalloc() gives exactly and
 * kmalloc() would round up to 16.
 */
static struct func_duration_counts *
func_duration_chunk_alloc(size_t size, int cpu, size_t *bytes)
{
	/* A failure is counted or reported, not a kernel warning. */
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | __GFP_ZERO;
	int node = cpu_to_node(cpu);

	if (func_duration_debug_fail_chunk(cpu))
		return NULL;

	if (size <= PAGE_SIZE) {
		*bytes = kmalloc_size_roundup(size);
		return kmalloc_node(size, gfp, node);
	}
	*bytes = PAGE_ALIGN(size);
	return __vmalloc_node(size, 1, gfp, node, __builtin_return_address(0));
}

#ifdef CONFIG_FUNCTION_DURATION_DEBUG_HOLD
u32 func_duration_fail_chunk_cpu;
#endif

/* Allocate the first @nr chunks of @cpu that are missing. */
static int func_duration_stats_grow_cpu(struct func_duration_stats *stats,
					int cpu, unsigned int nr)
{
	struct func_duration_counts **chunks = per_cpu_ptr(stats->chunks, cpu);
	struct func_duration_counts *chunk;
	unsigned int i;
	size_t bytes;

	lockdep_assert_held(&func_duration_chunks_mutex);
	for (i = 0; i < nr; i++) {
		if (chunks[i])
			continue;
		chunk = func_duration_chunk_alloc(func_duration_chunk_size(stats, i),
						  cpu, &bytes);
		if (!chunk)
			return -ENOMEM;
		atomic_long_add(bytes, &stats->bytes);
		/* Zeroed before the counting or a reader can see it */
		smp_store_release(&chunks[i], chunk);
	}
	return 0;
}

/* Allocate the first @nr chunks on every online CPU. */
static int func_duration_stats_grow(struct func_duration_stats *stats,
				    unsigned int nr)
{
	int cpu, ret = 0;

	lockdep_assert_cpus_held();
	lockdep_assert_held(&func_duration_chunks_mutex);
	nr = min(nr, func_duration_chunks(stats->max));
	for_each_online_cpu(cpu) {
		if (func_duration_stats_grow_cpu(stats, cpu, nr))
			ret = -ENOMEM;
	}
	/* What a CPU coming online gets, and the rows that need no work */
	if (nr > stats->nr_chunks)
		WRITE_ONCE(stats->nr_chunks, nr);
	return ret;
}

/* The rows of @nr_funcs functions on every online CPU */
static int func_duration_stats_reserve(struct func_duration_stats *stats,
				       unsigned int nr_funcs)
{
	int ret;

	cpus_read_lock();
	mutex_lock(&func_duration_chunks_mutex);
	ret = func_duration_stats_grow(stats, func_duration_chunks(nr_funcs));
	mutex_unlock(&func_duration_chunks_mutex);
	cpus_read_unlock();

	return ret;
}

/*
 * The rows claimed so far and a chunk more, for the functions that come
 * next. Without memory their calls stay dropped.
 */
static void func_duration_stats_grow_workfn(struct work_struct *work)
{
	struct func_duration_stats *stats =
		container_of(work, struct func_duration_stats, grow_work);

	/* Before the rows are counted: a claim not counted asks again */
	clear_bit(0, &stats->grow_pending);
	/* Pairs with test_and_set_bit() in func_duration_stats_drop_no_mem() */
	smp_mb__after_atomic();
	if (func_duration_stats_reserve(stats, func_duration_stats_nr_rows(stats) +
					FUNC_DURATION_CHUNK_ROWS))
		WRITE_ONCE(stats->grow_retry, jiffies + HZ);
}

/* Queued by the counting, in any context: the work can sleep. */
static void func_duration_stats_grow_irq(struct irq_work *work)
{
	struct func_duration_stats *stats =
		container_of(work, struct func_duration_stats, grow_irq);

	schedule_work(&stats->grow_work);
}

/**
 * func_duration_stats_flush - wait for the rows that the counting asked for
 * @stats: the statistics
 *
 * For the KUnit test: once it returns, the rows of the functions claimed
 * before the call are allocated, or could not be.
 */
void func_duration_stats_flush(struct func_duration_stats *stats)
{
	irq_work_sync(&stats->grow_irq);
	flush_work(&stats->grow_work);
}

/*
 * A CPU coming online gets the rows of every live statistics. It runs in
 * process context, with the hotplug lock held: it takes no tracing lock.
 */
static int func_duration_stats_cpu_online(unsigned int cpu)
{
	struct func_duration_stats *stats;

	mutex_lock(&func_duration_chunks_mutex);
	list_for_each_entry(stats, &func_duration_stats_list, list)
		func_duration_stats_grow_cpu(stats, cpu, stats->nr_chunks);
	mutex_unlock(&func_duration_chunks_mutex);

	/* Without memory, its calls are dropped and counted: the CPU comes up. */
	return 0;
}

/* ---------------------------------------------------------------------
 * Lifetime
 */

/**
 * func_duration_synchronize - wait for the callbacks running now
 *
 * The callbacks run with preemption disabled, in every context, and on
 * some architectures where RCU is not watching: once this returns, none
 * that started before is running.
 */
void func_duration_synchronize(void)
{
	synchronize_rcu_tasks_rude();
	synchronize_rcu();
}

static unsigned int func_duration_stats_max(struct trace_array *tr)
{
	return tr->func_duration_stats_max ?: FUNC_DURATION_STATS_DEFAULT_MAX;
}

/*
 * A row whose function was in a module that is gone: it keeps its counts
 * and the name the function had, and matches no address any more, so
 * that code loaded later at the same address gets rows of its own.
 */
#define FUNC_DURATION_UNLOADED	1UL

static void func_duration_stats_forget_names(struct func_duration_stats *stats)
{
	unsigned int i;

	if (!stats->names)
		return;
	for (i = 0; i < stats->max; i++) {
		kfree(stats->names[i]);
		stats->names[i] = NULL;
	}
}

static void func_duration_stats_free(struct kref *ref)
{
	struct func_duration_stats *stats =
		container_of(ref, struct func_duration_stats, ref);
	unsigned int i;
	int cpu;

	if (stats->chunks) {
		for_each_possible_cpu(cpu) {
			for (i = 0; i < func_duration_chunks(stats->max); i++)
				kvfree(per_cpu_ptr(stats->chunks, cpu)[i]);
		}
		free_percpu(stats->chunks);
	}
	free_percpu(stats->drops);
	kvfree(stats->slots);
	kvfree(stats->slot_funcs);
	kvfree(stats->funcs);
	func_duration_stats_forget_names(stats);
	kvfree(stats->names);
	kfree(stats);
}

/**
 * func_duration_stats_destroy - free statistics
 * @stats: what func_duration_stats_create() returned, or NULL
 *
 * A reader of the stats or hist file that still has them open frees them
 * when it closes it.
 */
void func_duration_stats_destroy(struct func_duration_stats *stats)
{
	if (!stats)
		return;
	/* Nothing allocates rows for them any more. */
	irq_work_sync(&stats->grow_irq);
	cancel_work_sync(&stats->grow_work);
	mutex_lock(&func_duration_chunks_mutex);
	list_del_init(&stats->list);
	mutex_unlock(&func_duration_chunks_mutex);

	kref_put(&stats->ref, func_duration_stats_free);
}

/**
 * func_duration_stats_create - allocate empty statistics
 * @max: the most functions they count
 * @nr_funcs: how many of them to allocate the rows of now, from 1 to @max
 *
 * The rows are allocated on the online CPUs; those of further functions
 * when they are claimed, and those of a CPU when it comes online.
 *
 * Return: the statistics, or NULL without memory.
 */
struct func_duration_stats *func_duration_stats_create(unsigned int max,
						       unsigned int nr_funcs)
{
	/* A failure is the user's error (error_log), not a kernel warning. */
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	size_t chunks_size = func_duration_chunks(max) *
			     sizeof(struct func_duration_counts *);
	struct func_duration_stats *stats;
	int ret;

	stats = kzalloc_obj(*stats, gfp);
	if (!stats)
		return NULL;
	kref_init(&stats->ref);
	INIT_LIST_HEAD(&stats->list);
	init_irq_work(&stats->grow_irq, func_duration_stats_grow_irq);
	INIT_WORK(&stats->grow_work, func_duration_stats_grow_workfn);
	stats->grow_retry = jiffies;

	stats->max = max;
	/* A quarter full at most, so that probes are short */
	stats->hash_mask = roundup_pow_of_two(max * 4) - 1;
	stats->funcs = kvcalloc(max, sizeof(*stats->funcs), gfp);
	stats->slots = kvcalloc(stats->hash_mask + 1, sizeof(*stats->slots), gfp);
	stats->slot_funcs = kvcalloc(stats->hash_mask + 1,
				     sizeof(*stats->slot_funcs), gfp);
	stats->chunks = __alloc_percpu_gfp(chunks_size,
					   __alignof__(struct func_duration_counts *),
					   gfp);
	stats->drops = alloc_percpu_gfp(struct func_duration_drops, gfp);
	if (!stats->funcs || !stats->slots || !stats->slot_funcs ||
	    !stats->chunks || !stats->drops)
		goto fail;

	atomic_long_set(&stats->bytes,
			sizeof(*stats) + max * sizeof(*stats->funcs) +
			(stats->hash_mask + 1) * (sizeof(*stats->slots) +
						  sizeof(*stats->slot_funcs)) +
			num_possible_cpus() * (chunks_size + sizeof(*stats->drops)));

	cpus_read_lock();
	mutex_lock(&func_duration_chunks_mutex);
	ret = func_duration_stats_grow(stats,
				       func_duration_chunks(clamp(nr_funcs, 1U, max)));
	if (!ret)
		list_add(&stats->list, &func_duration_stats_list);
	mutex_unlock(&func_duration_chunks_mutex);
	cpus_read_unlock();
	if (ret)
		goto fail;

	return stats;
fail:
	func_duration_stats_destroy(stats);
	return NULL;
}

/*
 * Zero the counters. While the tracer runs, the function of each row is
 * kept: a call in flight may still be counted in its row.
 */
static void func_duration_stats_clear(struct func_duration_stats *stats,
				      bool forget_functions)
{
	struct func_duration_counts *chunk;
	unsigned int i;
	int cpu;

	/* A reader that has the file open stops printing rows. */
	WRITE_ONCE(stats->gen, stats->gen + 1);
	/* Pairs with smp_rmb() in func_duration_snapshot_row() */
	smp_wmb();
	for_each_possible_cpu(cpu) {
		/* A chunk allocated meanwhile is zeroed already. */
		for (i = 0; i < func_duration_chunks(stats->max); i++) {
			chunk = func_duration_stats_chunk(stats, cpu, i);
			if (chunk)
				memset(chunk, 0, func_duration_chunk_size(stats, i));
		}
		memset(per_cpu_ptr(stats->drops, cpu), 0, sizeof(*stats->drops));
	}
	if (forget_functions) {
		func_duration_stats_forget_names(stats);
		memset(stats->funcs, 0, stats->max * sizeof(*stats->funcs));
		memset(stats->slots, 0,
		       (stats->hash_mask + 1) * sizeof(*stats->slots));
		memset(stats->slot_funcs, 0,
		       (stats->hash_mask + 1) * sizeof(*stats->slot_funcs));
		atomic_set(&stats->nr_funcs, 0);
	}
	stats->start_ns = ktime_get_mono_fast_ns();
	stats->stop_ns = stats->start_ns;
}

/*
 * How many functions the tracer of @tr can count, at most: those its
 * filter names, or every function. Their rows are allocated at the start.
 */
static unsigned long func_duration_stats_traceable(struct trace_array *tr)
{
#ifdef CONFIG_DYNAMIC_FTRACE
	struct ftrace_ops_hash *func_hash = tr->ops ? tr->ops->func_hash : NULL;
	struct ftrace_hash *hash;
	unsigned long nr;

	if (func_hash) {
		mutex_lock(&func_hash->regex_lock);
		hash = rcu_dereference_protected(func_hash->filter_hash,
						 lockdep_is_held(&func_hash->regex_lock));
		nr = ftrace_hash_empty(hash) ? READ_ONCE(ftrace_update_tot_cnt) :
					       hash->count;
		mutex_unlock(&func_hash->regex_lock);
		return nr;
	}
#endif
	return ULONG_MAX;
}

/**
 * func_duration_stats_start - prepare empty statistics for a tracer start
 * @tr: the trace array whose function_duration tracer starts
 *
 * Called before the tracer's callbacks are registered. The statistics of
 * the previous run are dropped; their memory is kept when it has the
 * limit of this run and no more rows than the functions @tr can trace,
 * and grown to those rows.
 *
 * Return: 0, -ENOMEM, or -EBUSY if they are still running (a bug).
 */
int func_duration_stats_start(struct trace_array *tr)
{
	unsigned int max = func_duration_stats_max(tr);
	unsigned int nr_funcs = min_t(unsigned long, max,
				      func_duration_stats_traceable(tr));
	struct func_duration_stats *stats;

	guard(mutex)(&func_duration_stats_mutex);
	stats = func_duration_stats_locked(tr);
	/* The tracer stops before it starts again: a reset was missed. */
	if (WARN_ON_ONCE(stats && stats->running))
		return -EBUSY;
	/*
	 * No callback of the previous run is left (the tracer's reset). The
	 * memory follows this run: rows for more functions than it can
	 * trace, left by a wider run, are freed.
	 */
	if (stats && (stats->max != max ||
		      READ_ONCE(stats->nr_chunks) >
		      func_duration_chunks(nr_funcs ?: 1))) {
		RCU_INIT_POINTER(tr->func_duration_stats, NULL);
		func_duration_stats_destroy(stats);
		stats = NULL;
	}
	if (!stats) {
		stats = func_duration_stats_create(max, nr_funcs);
		if (!stats)
			return -ENOMEM;
	} else if (func_duration_stats_reserve(stats, nr_funcs)) {
		return -ENOMEM;
	}
	func_duration_stats_clear(stats, true);
	stats->running = true;
	rcu_assign_pointer(tr->func_duration_stats, stats);

	return 0;
}

/**
 * func_duration_stats_stop - close the time window of the statistics
 * @tr: the trace array whose function_duration tracer stopped
 *
 * The statistics stay readable until the tracer starts again, they are
 * reset, or the instance is removed.
 */
void func_duration_stats_stop(struct trace_array *tr)
{
	struct func_duration_stats *stats;

	guard(mutex)(&func_duration_stats_mutex);
	stats = func_duration_stats_locked(tr);
	if (!stats)
		return;
	stats->stop_ns = ktime_get_mono_fast_ns();
	stats->running = false;
}

/**
 * func_duration_free_stats - free the statistics of a trace array
 * @tr: the trace array being removed, its tracer already stopped
 */
void func_duration_free_stats(struct trace_array *tr)
{
	struct func_duration_stats *stats;

	guard(mutex)(&func_duration_stats_mutex);
	stats = func_duration_stats_locked(tr);
	if (!stats)
		return;
	/* Callbacks still registered would count into freed memory. */
	if (WARN_ON_ONCE(stats->running))
		return;
	/* The tracer's reset waited for the callbacks of its last run. */
	RCU_INIT_POINTER(tr->func_duration_stats, NULL);
	func_duration_stats_destroy(stats);
}

/* ---------------------------------------------------------------------
 * Reading: the order and the footer are summed over the CPUs when the file
 * is opened, each row again when it is printed. A snapshot of every row
 * would copy 1.2 KB per function (76 MB at 65536 functions) on each read.
 */

/* A row of the snapshot: what sorts it, and where its counts are */
struct func_duration_sorted {
	u64		total;
	unsigned long	func;
	char		*name;		/* of an unloaded function, or NULL */
	unsigned int	index;		/* in the statistics */
};

struct func_duration_snapshot {
	struct trace_array	*tr;
	bool			have_stats;
	bool			running;
	bool			reset_on_release;
	unsigned int		nr_funcs;
	unsigned int		max;
	size_t			bytes;
	unsigned int		alloc_rows;	/* rows allocated per CPU */
	unsigned int		alloc_cpus;	/* CPUs with rows */
	u64			calls;
	u64			total;
	u64			bd_calls;
	u64			over_cap;
	u64			nmi;
	u64			no_stack;
	u64			unordered;
	u64			no_mem;
	u64			window_ns;
	unsigned int		nr_rows;
	struct func_duration_sorted *entries;
	struct func_duration_stats *stats;	/* a reference, or NULL */
	unsigned long		gen;		/* of @stats, when opened */
	bool			stale;		/* rows left out: a reset */
	struct func_duration_row row;		/* the one being printed */
};

/* The rows claimed so far: the rows a reader may look at */
static unsigned int func_duration_stats_nr_rows(struct func_duration_stats *stats)
{
	unsigned int nr = atomic_read(&stats->nr_funcs);

	/* func_duration_stats_row() claims a row only below the limit. */
	WARN_ON_ONCE(nr > stats->max);
	return min(nr, stats->max);
}

/* Sum row @i of @stats over the CPUs into @row, all but its function */
static void func_duration_row_sum(struct func_duration_stats *stats,
				  unsigned int i, struct func_duration_row *row)
{
	u64 min_inv = 0;
	unsigned int b;
	int cpu;

	memset(row, 0, sizeof(*row));
	for_each_possible_cpu(cpu) {
		struct func_duration_counts *c =
			func_duration_stats_chunk(stats, cpu,
						  i >> FUNC_DURATION_CHUNK_SHIFT);

		/* Never allocated on this CPU: nothing counted there */
		if (!c)
			continue;
		c += i & (FUNC_DURATION_CHUNK_ROWS - 1);
		row->calls += local64_read(&c->calls);
		row->total += local64_read(&c->total);
		row->self += local64_read(&c->self);
		row->bd_calls += local64_read(&c->bd_calls);
		row->running += local64_read(&c->running);
		row->runnable += local64_read(&c->runnable);
		row->blocked += local64_read(&c->blocked);
		row->irq += local64_read(&c->irq);
		min_inv = max_t(u64, min_inv, local64_read(&c->min_inv));
		row->max = max_t(u64, row->max, local64_read(&c->max));
		for (b = 0; b < FUNC_DURATION_NR_BUCKETS; b++)
			row->buckets[b] += (u32)atomic_read(&c->buckets[b]);
	}
	row->min = ~min_inv;
	/* A reset racing with a call can leave min above max. */
	row->min = min(row->min, row->max);
}

/**
 * func_duration_stats_sum - the counts of one function, summed over the CPUs
 * @stats: the statistics
 * @func: the function
 * @row: where the counts of its first row go
 *
 * Lockless, like the counting: a call counted meanwhile may be partly in
 * @row. For the KUnit test.
 *
 * Return: how many rows @func has: 1, or 0 if it was never counted.
 */
unsigned int func_duration_stats_sum(struct func_duration_stats *stats,
				     unsigned long func,
				     struct func_duration_row *row)
{
	unsigned int nr = func_duration_stats_nr_rows(stats);
	unsigned int i, found = 0;

	for (i = 0; i < nr; i++) {
		if (READ_ONCE(stats->funcs[i]) != func)
			continue;
		if (!found++) {
			func_duration_row_sum(stats, i, row);
			row->func = func;
		}
	}
	return found;
}

static int func_duration_sorted_cmp(const void *a, const void *b)
{
	const struct func_duration_sorted *ea = a, *eb = b;

	if (ea->total != eb->total)
		return ea->total < eb->total ? 1 : -1;
	return ea->func < eb->func ? -1 : ea->func > eb->func;
}

static int func_duration_snapshot_take(struct func_duration_snapshot *snap)
{
	struct func_duration_row *row = &snap->row;
	struct func_duration_stats *stats;
	unsigned int nr, i;
	int cpu;

	mutex_lock(&func_duration_stats_mutex);
	stats = func_duration_stats_locked(snap->tr);
	if (!stats)
		goto out;

	snap->have_stats = true;
	snap->running = stats->running;
	snap->max = stats->max;
	snap->bytes = atomic_long_read(&stats->bytes);
	snap->alloc_rows = min_t(unsigned int, stats->max,
				 READ_ONCE(stats->nr_chunks) * FUNC_DURATION_CHUNK_ROWS);
	nr = func_duration_stats_nr_rows(stats);
	snap->nr_funcs = 0;
	snap->window_ns = (stats->running ? ktime_get_mono_fast_ns() :
			   stats->stop_ns) - stats->start_ns;

	for_each_possible_cpu(cpu) {
		struct func_duration_drops *drops = per_cpu_ptr(stats->drops, cpu);

		snap->over_cap += local_read(&drops->over_cap);
		snap->nmi += READ_ONCE(drops->nmi);
		snap->no_stack += local_read(&drops->no_stack);
		snap->unordered += local_read(&drops->unordered);
		snap->no_mem += local_read(&drops->no_mem);
		if (func_duration_stats_chunk(stats, cpu, 0))
			snap->alloc_cpus++;
	}

	snap->entries = kvcalloc(nr ?: 1, sizeof(*snap->entries), GFP_KERNEL);
	if (!snap->entries) {
		mutex_unlock(&func_duration_stats_mutex);
		return -ENOMEM;
	}

	for (i = 0; i < nr; i++) {
		unsigned long func = READ_ONCE(stats->funcs[i]);
		struct func_duration_sorted *entry;

		/* Up to 65536 rows, each summed over every CPU */
		cond_resched();
		if (!func)
			continue;
		snap->nr_funcs++;
		func_duration_row_sum(stats, i, row);
		if (!row->calls)
			continue;
		entry = &snap->entries[snap->nr_rows];
		entry->total = row->total;
		entry->func = func;
		entry->index = i;
		if (func == FUNC_DURATION_UNLOADED)
			entry->name = kstrdup(stats->names[i], GFP_KERNEL);
		snap->calls += row->calls;
		snap->total += row->total;
		snap->bd_calls += row->bd_calls;
		snap->nr_rows++;
	}
	/* The rows are read again as they are printed. */
	kref_get(&stats->ref);
	snap->stats = stats;
	snap->gen = stats->gen;
out:
	mutex_unlock(&func_duration_stats_mutex);

	sort(snap->entries, snap->nr_rows, sizeof(*snap->entries),
	     func_duration_sorted_cmp, NULL);

	return 0;
}

/*
 * Row @i of the snapshot, summed now: NULL once the statistics were
 * cleared since the file was opened (or while the row was summed), which
 * the footer says.
 */
static struct func_duration_row *
func_duration_snapshot_row(struct func_duration_snapshot *snap, unsigned int i)
{
	struct func_duration_sorted *entry = &snap->entries[i];
	struct func_duration_stats *stats = snap->stats;
	struct func_duration_row *row = &snap->row;
	unsigned long func;

	if (READ_ONCE(stats->gen) != snap->gen)
		goto stale;
	func = READ_ONCE(stats->funcs[entry->index]);
	/* Only a clear or a module's unloading changes a row's function. */
	if (func != entry->func && func != FUNC_DURATION_UNLOADED)
		goto stale;
	func_duration_row_sum(stats, entry->index, row);
	/* Pairs with smp_wmb() in func_duration_stats_clear() */
	smp_rmb();
	if (READ_ONCE(stats->gen) != snap->gen || !row->calls)
		goto stale;
	row->func = func;
	/* Unloaded since the open: printed as such, its name unknown here */
	row->name = func == entry->func ? entry->name : NULL;
	return row;
stale:
	snap->stale = true;
	return NULL;
}

static void func_duration_print_footer(struct seq_file *m,
				       struct func_duration_snapshot *snap)
{
	if (!snap->have_stats) {
		seq_puts(m, "# no statistics: function_duration has not run in this instance\n");
		return;
	}
	seq_puts(m, "#\n");
	seq_printf(m, "# functions: %u of at most %u, calls: %llu, total: %llu ns\n",
		   snap->nr_funcs, snap->max, snap->calls, snap->total);
	seq_printf(m, "# memory: %zu bytes, for %u of at most %u functions on %u CPUs\n",
		   snap->bytes, snap->alloc_rows, snap->max, snap->alloc_cpus);
	seq_printf(m, "# dropped calls: %llu over the function limit, %llu in NMI, %llu without shadow stack room, %llu with a negative duration, %llu without memory\n",
		   snap->over_cap, snap->nmi, snap->no_stack, snap->unordered,
		   snap->no_mem);
	seq_printf(m, "# calls with a breakdown: %llu\n", snap->bd_calls);
	seq_printf(m, "# window: %llu ns, %s\n", snap->window_ns,
		   snap->running ? "running" : "stopped");
	if (snap->stale)
		seq_puts(m, "# reset while this file was read: rows left out\n");
}

/* seq_file positions: 0 is the header, 1..nr_rows the rows, then the footer */
static void *func_duration_seq_start(struct seq_file *m, loff_t *pos)
{
	struct func_duration_snapshot *snap = m->private;

	return *pos <= snap->nr_rows + 1 ? (void *)(unsigned long)(*pos + 1) : NULL;
}

static void *func_duration_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return func_duration_seq_start(m, pos);
}

static void func_duration_seq_stop(struct seq_file *m, void *v)
{
}

static void func_duration_print_func(struct seq_file *m,
				     struct func_duration_row *row)
{
	if (row->func == FUNC_DURATION_UNLOADED)
		seq_puts(m, row->name ?: "[unloaded]");
	else
		seq_printf(m, "%ps", (void *)row->func);
}

static int func_duration_stats_show(struct seq_file *m, void *v)
{
	struct func_duration_snapshot *snap = m->private;
	unsigned long pos = (unsigned long)v - 1;
	struct func_duration_row *row;

	if (pos == 0) {
		seq_puts(m, "# function_duration statistics: times in ns, sorted by total time\n");
		seq_puts(m, "#\n");
		seq_printf(m, "# %10s %15s %15s %12s %12s %12s %12s %12s %12s %12s %10s %15s %15s %15s %15s  %s\n",
			   "CALLS", "TOTAL", "SELF", "AVG", "MIN", "MAX",
			   "STDDEV", "P50", "P90", "P99", "BD_CALLS", "RUNNING",
			   "RUNNABLE", "BLOCKED", "IRQ", "FUNCTION");
		return 0;
	}
	if (pos > snap->nr_rows) {
		func_duration_print_footer(m, snap);
		return 0;
	}

	row = func_duration_snapshot_row(snap, pos - 1);
	if (!row)
		return SEQ_SKIP;
	seq_printf(m, "  %10llu %15llu %15llu %12llu %12llu %12llu %12llu %12llu %12llu %12llu %10llu %15llu %15llu %15llu %15llu  ",
		   row->calls, row->total, row->self,
		   div64_u64(row->total, row->calls), row->min, row->max,
		   func_duration_stddev(row->buckets, row->min, row->max,
					div64_u64(row->total, row->calls)),
		   func_duration_percentile(row->buckets, row->min, row->max, 50),
		   func_duration_percentile(row->buckets, row->min, row->max, 90),
		   func_duration_percentile(row->buckets, row->min, row->max, 99),
		   row->bd_calls, row->running, row->runnable, row->blocked,
		   row->irq);
	func_duration_print_func(m, row);
	seq_putc(m, '\n');
	return 0;
}

#define FUNC_DURATION_BAR_WIDTH	40

/* A log2 histogram: bucket 0 holds 0 and 1 ns, bucket n holds [2^n, 2^(n+1)) */
static void func_duration_print_hist(struct seq_file *m,
				     struct func_duration_row *row)
{
	u64 log2[FUNC_DURATION_MAX_ORDER + 1] = { };
	char bar[FUNC_DURATION_BAR_WIDTH + 1];
	unsigned int b, n, first = 0, last = 0;
	u64 top = 0, lo;
	int len;

	for (b = 0; b < FUNC_DURATION_NR_BUCKETS; b++) {
		lo = func_duration_bucket_lower(b);
		n = lo > 1 ? ilog2(lo) : 0;
		log2[n] += row->buckets[b];
	}
	for (n = 0; n <= FUNC_DURATION_MAX_ORDER; n++) {
		if (!log2[n])
			continue;
		if (!top)
			first = n;
		last = n;
		top = max(top, log2[n]);
	}

	seq_puts(m, "\nfunction: ");
	func_duration_print_func(m, row);
	seq_printf(m, "  calls: %llu\n", row->calls);
	seq_printf(m, "%24s : %-10s %s\n", "ns", "count", "distribution");
	for (n = first; n <= last; n++) {
		len = top ? div64_u64(log2[n] * FUNC_DURATION_BAR_WIDTH + top - 1, top) : 0;
		memset(bar, '*', len);
		memset(bar + len, ' ', FUNC_DURATION_BAR_WIDTH - len);
		bar[FUNC_DURATION_BAR_WIDTH] = '\0';
		lo = n ? 1ULL << n : 0;
		if (n == FUNC_DURATION_MAX_ORDER)
			seq_printf(m, "%11llu -> %-10s : %-10llu |%s|\n",
				   lo, "inf", log2[n], bar);
		else
			seq_printf(m, "%11llu -> %-10llu : %-10llu |%s|\n",
				   lo, (1ULL << (n + 1)) - 1, log2[n], bar);
	}
}

static int func_duration_hist_show(struct seq_file *m, void *v)
{
	struct func_duration_snapshot *snap = m->private;
	unsigned long pos = (unsigned long)v - 1;
	struct func_duration_row *row;

	if (pos == 0) {
		seq_puts(m, "# function_duration histograms: log2 buckets of ns, in the order of stats\n");
		return 0;
	}
	if (pos > snap->nr_rows) {
		seq_puts(m, "\n");
		func_duration_print_footer(m, snap);
		return 0;
	}
	row = func_duration_snapshot_row(snap, pos - 1);
	if (!row)
		return SEQ_SKIP;
	func_duration_print_hist(m, row);
	return 0;
}

static const struct seq_operations func_duration_stats_seq_ops = {
	.start	= func_duration_seq_start,
	.next	= func_duration_seq_next,
	.stop	= func_duration_seq_stop,
	.show	= func_duration_stats_show,
};

static const struct seq_operations func_duration_hist_seq_ops = {
	.start	= func_duration_seq_start,
	.next	= func_duration_seq_next,
	.stop	= func_duration_seq_stop,
	.show	= func_duration_hist_show,
};

/*
 * Stopped, the statistics are cleared in place: no callback is left.
 * Running, callbacks on other CPUs are counting into them, so the reset
 * replaces them with empty ones, and frees the old ones once no callback
 * can still count there: every call that starts once this returns is
 * counted exactly once, in the new ones.
 */
static int func_duration_reset(struct trace_array *tr)
{
	struct func_duration_stats *stats, *fresh;

	scoped_guard(mutex, &func_duration_stats_mutex) {
		stats = func_duration_stats_locked(tr);
		if (!stats)
			return 0;
		if (!stats->running) {
			func_duration_stats_clear(stats, true);
			return 0;
		}
		/* As many rows as the old ones: the same functions come back. */
		fresh = func_duration_stats_create(stats->max,
						   READ_ONCE(stats->nr_chunks) *
						   FUNC_DURATION_CHUNK_ROWS);
		if (!fresh)
			return -ENOMEM;
		func_duration_stats_clear(fresh, true);
		fresh->running = true;
		rcu_assign_pointer(tr->func_duration_stats, fresh);
	}
	func_duration_synchronize();
	func_duration_stats_destroy(stats);

	return 0;
}

static int func_duration_seq_open(struct inode *inode, struct file *filp,
				  const struct seq_operations *ops,
				  bool truncate_resets)
{
	struct trace_array *tr = inode->i_private;
	struct func_duration_snapshot *snap;
	int ret;

	ret = tracing_check_open_get_tr(tr);
	if (ret)
		return ret;

	snap = __seq_open_private(filp, ops, sizeof(*snap));
	if (!snap) {
		trace_array_put(tr);
		return -ENOMEM;
	}
	snap->tr = tr;

	/* A truncating open resets, once the file is closed without error. */
	if (truncate_resets && (filp->f_mode & FMODE_WRITE) &&
	    (filp->f_flags & O_TRUNC))
		snap->reset_on_release = true;

	if (filp->f_mode & FMODE_READ) {
		ret = func_duration_snapshot_take(snap);
		if (ret) {
			seq_release_private(inode, filp);
			trace_array_put(tr);
			return ret;
		}
	}

	return 0;
}

static int func_duration_seq_release(struct inode *inode, struct file *filp)
{
	struct seq_file *m = filp->private_data;
	struct func_duration_snapshot *snap = m->private;
	struct trace_array *tr = snap->tr;
	unsigned int i;

	if (snap->reset_on_release && func_duration_reset(tr)) {
		char none[] = "";

		/* The truncation took effect at open: say that it failed. */
		func_duration_log_input_err(tr, "stats", none,
					    FUNC_DURATION_ERR_NOMEM);
	}
	for (i = 0; i < snap->nr_rows; i++)
		kfree(snap->entries[i].name);
	kvfree(snap->entries);
	if (snap->stats)
		kref_put(&snap->stats->ref, func_duration_stats_free);
	seq_release_private(inode, filp);
	trace_array_put(tr);

	return 0;
}

static int func_duration_stats_open(struct inode *inode, struct file *filp)
{
	return func_duration_seq_open(inode, filp, &func_duration_stats_seq_ops,
				      true);
}

static int func_duration_hist_open(struct inode *inode, struct file *filp)
{
	return func_duration_seq_open(inode, filp, &func_duration_hist_seq_ops,
				      false);
}

/* "0" (optionally with a newline) resets; anything else is rejected. */
static ssize_t func_duration_stats_write(struct file *filp,
					 const char __user *ubuf,
					 size_t cnt, loff_t *ppos)
{
	struct seq_file *m = filp->private_data;
	struct func_duration_snapshot *snap = m->private;
	char buf[FUNC_DURATION_INPUT_MAX + 1];
	int ret;

	ret = func_duration_get_input(snap->tr, "stats", ubuf, cnt, buf,
				      sizeof(buf));
	if (!ret && strcmp(buf, "0") && strcmp(buf, "0\n")) {
		func_duration_log_input_err(snap->tr, "stats", buf,
					    FUNC_DURATION_ERR_RESET);
		ret = -EINVAL;
	}
	if (ret) {
		snap->reset_on_release = false;
		return ret;
	}

	snap->reset_on_release = false;
	ret = func_duration_reset(snap->tr);
	if (ret) {
		func_duration_log_input_err(snap->tr, "stats", buf,
					    FUNC_DURATION_ERR_NOMEM);
		return ret;
	}
	*ppos += cnt;

	return cnt;
}

static const struct file_operations func_duration_stats_fops = {
	.open		= func_duration_stats_open,
	.read		= seq_read,
	.write		= func_duration_stats_write,
	.llseek		= seq_lseek,
	.release	= func_duration_seq_release,
};

static const struct file_operations func_duration_hist_fops = {
	.open		= func_duration_hist_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= func_duration_seq_release,
};

/* ---------------------------------------------------------------------
 * stats_enable and stats_max_functions
 */

static ssize_t stats_enable_read(struct file *filp, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;

	return func_duration_read_number(ubuf, cnt, ppos,
					 !READ_ONCE(tr->func_duration_stats_off));
}

static ssize_t stats_enable_write(struct file *filp, const char __user *ubuf,
				  size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;
	bool enable;
	int ret;

	ret = func_duration_get_bool(tr, "stats_enable", ubuf, cnt, &enable);
	if (ret)
		return ret;

	WRITE_ONCE(tr->func_duration_stats_off, !enable);
	*ppos += cnt;

	return cnt;
}

static const struct file_operations stats_enable_fops = {
	.open		= tracing_open_generic_tr,
	.read		= stats_enable_read,
	.write		= stats_enable_write,
	.release	= tracing_release_generic_tr,
	.llseek		= generic_file_llseek,
};

static ssize_t stats_max_read(struct file *filp, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;

	return func_duration_read_number(ubuf, cnt, ppos,
					 func_duration_stats_max(tr));
}

static ssize_t stats_max_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;
	char buf[FUNC_DURATION_INPUT_MAX + 1];
	unsigned int max;
	int ret;

	ret = func_duration_get_input(tr, "stats_max_functions", ubuf, cnt,
				      buf, sizeof(buf));
	if (ret)
		return ret;
	if (func_duration_parse_max(buf, &max)) {
		func_duration_log_input_err(tr, "stats_max_functions", buf,
					    FUNC_DURATION_ERR_MAX_FUNCS);
		return -EINVAL;
	}

	/* Takes effect when the tracer next starts, like buffer_size_kb. */
	WRITE_ONCE(tr->func_duration_stats_max, max);
	*ppos += cnt;

	return cnt;
}

static const struct file_operations stats_max_fops = {
	.open		= tracing_open_generic_tr,
	.read		= stats_max_read,
	.write		= stats_max_write,
	.release	= tracing_release_generic_tr,
	.llseek		= generic_file_llseek,
};

/**
 * func_duration_stats_init_tracefs - create the statistics files
 * @tr: the trace array
 * @dir: its function_duration directory
 */
void func_duration_stats_init_tracefs(struct trace_array *tr,
				      struct dentry *dir)
{
	trace_create_file("stats", TRACE_MODE_WRITE, dir, tr,
			  &func_duration_stats_fops);
	trace_create_file("hist", TRACE_MODE_READ, dir, tr,
			  &func_duration_hist_fops);
	trace_create_file("stats_enable", TRACE_MODE_WRITE, dir, tr,
			  &stats_enable_fops);
	trace_create_file("stats_max_functions", TRACE_MODE_WRITE, dir, tr,
			  &stats_max_fops);
}

/*
 * Give the rows of @mod's functions their names, and retire them; only
 * those of its init functions if @init.
 */
static void func_duration_stats_unload(struct func_duration_stats *stats,
				       struct module *mod, bool init)
{
	unsigned int nr = func_duration_stats_nr_rows(stats);
	unsigned long func;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		func = READ_ONCE(stats->funcs[i]);
		if (init ? !within_module_init(func, mod) : !within_module(func, mod))
			continue;
		if (!stats->names) {
			stats->names = kvcalloc(stats->max, sizeof(*stats->names),
						GFP_KERNEL);
			if (!stats->names)
				return;	/* the rows keep their addresses */
		}
		stats->names[i] = kasprintf(GFP_KERNEL, "%ps", (void *)func);
		WRITE_ONCE(stats->funcs[i], FUNC_DURATION_UNLOADED);
	}
	/* Code loaded later at these addresses gets slots of its own. */
	for (i = 0; i <= stats->hash_mask; i++) {
		func = READ_ONCE(stats->slot_funcs[i]);
		if (init ? within_module_init(func, mod) : within_module(func, mod))
			WRITE_ONCE(stats->slot_funcs[i], FUNC_DURATION_UNLOADED);
	}
}

/*
 * The rows of a module's functions outlive the module, and those of its
 * init functions outlive its init text: name them while their symbols
 * are still there (a live module's init text is freed after the
 * notifiers ran).
 */
static int func_duration_module_notify(struct notifier_block *nb,
				       unsigned long state, void *data)
{
	struct func_duration_stats *stats;
	struct trace_array *tr;

	if (state != MODULE_STATE_GOING && state != MODULE_STATE_LIVE)
		return NOTIFY_DONE;

	mutex_lock(&trace_types_lock);
	mutex_lock(&func_duration_stats_mutex);
	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		stats = func_duration_stats_locked(tr);
		if (stats)
			func_duration_stats_unload(stats, data,
						   state == MODULE_STATE_LIVE);
	}
	mutex_unlock(&func_duration_stats_mutex);
	mutex_unlock(&trace_types_lock);

	return NOTIFY_OK;
}

static struct notifier_block func_duration_module_nb = {
	.notifier_call = func_duration_module_notify,
};

static int __init set_func_duration_stats_max(char *str)
{
	if (func_duration_parse_max(str, &func_duration_boot_stats_max))
		pr_warn("function_duration: bad function_duration_stats_max=%s\n",
			str);
	return 1;
}
__setup("function_duration_stats_max=", set_func_duration_stats_max);

static __init int init_func_duration_stats(void)
{
	int ret;

	top_trace_array()->func_duration_stats_max = func_duration_boot_stats_max;
	/* Before any statistics exist: no calls for the CPUs online now */
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"trace/function_duration:online",
					func_duration_stats_cpu_online, NULL);
	if (ret < 0)
		pr_warn("function_duration: no statistics for CPUs that come online: %d\n",
			ret);
	return register_module_notifier(&func_duration_module_nb);
}

/* Before the tracer registers, which starts it for ftrace=function_duration */
early_initcall(init_func_duration_stats);
