// SPDX-License-Identifier: GPL-2.0
/*
 * Function duration tracer.
 *
 * Writes one event per completed function call whose duration reaches
 * the instance's threshold, with the duration next to the function and
 * the call site it returned to. Shorter calls never touch the ring
 * buffer, and no entry event is ever written.
 *
 * Each instance's tracer is one more user of the function graph hooks,
 * through the instance's own fgraph_ops (tr->gops): it honours that
 * instance's set_ftrace_filter, set_ftrace_notrace and pid filters, and
 * runs alongside function and function_graph in other instances.
 *
 * Based on the function graph tracer by Frederic Weisbecker and on the
 * function_duration tracer Tim Bird posted in December 2009.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/tracefs.h>

#include "trace.h"
#include "trace_output.h"
#include "trace_functions_duration.h"

/* Top-level threshold from "function_duration_threshold=" */
static u64 func_duration_boot_threshold __initdata;

/* ---------------------------------------------------------------------
 * The function graph callbacks. No locks, no allocation, no sleeping:
 * they run in any context, NMI included. The ring buffer is NMI safe.
 */

/*
 * Self time: a counted call must learn how long the calls it made took,
 * counting only the closest ones that this instance counted. With 64-bit
 * longs, the task variable keeps a clock for that, see
 * func_duration_clock_return(). A 32-bit long has no room for it: there,
 * each call keeps the time of its children on the shadow stack, and a
 * returning call adds its duration to that of its closest counted caller.
 *
 * An interrupt that returns while a return callback updates the clock or
 * a caller's children time can have its time left out of the caller's
 * children: it then counts as the caller's self time.
 */
#define FUNC_DURATION_HAS_CLOCK		IS_ENABLED(CONFIG_64BIT)

/*
 * What a call keeps on the shadow stack: when it started, the task's
 * sleep time then, the mark of its self time, and with the breakdown on,
 * the task's totals on entry, which its return replaces with its parts.
 */
struct func_duration_frame {
	u64					calltime;
	u64					sleeptime;
	u64					mark;
	union {
		struct func_duration_bd_snap	bd;
		struct func_duration_parts	parts;
	};
};

/* The frame of a call without a breakdown */
#define FUNC_DURATION_FRAME_TIMES	offsetof(struct func_duration_frame, bd)

/* The mark of a call that started with the statistics off */
#define FUNC_DURATION_NOT_COUNTED	U64_MAX

/*
 * The instance's options: the call time column and the return value, off
 * by default, and whether the time a call was switched out counts.
 */
#define FUNC_DURATION_PRINT_CALLTIME	0x1
#define FUNC_DURATION_PRINT_RETVAL	0x2
#define FUNC_DURATION_SLEEP_TIME	0x4

/*
 * trace_clock_local(), the clock of the events' timestamps, without its
 * preemption pair: the fgraph core calls both callbacks under its
 * recursion lock, which disables preemption.
 */
static __always_inline u64 func_duration_clock(void)
{
	lockdep_assert_preemption_disabled();
	return sched_clock();
}

static int func_duration_entry(struct ftrace_graph_ent *trace,
			       struct fgraph_ops *gops,
			       struct ftrace_regs *fregs)
{
	unsigned long *task_var = fgraph_get_task_var(gops);
	struct trace_array *tr = gops->private;
	struct func_duration_frame *frame;
	unsigned long flags;
	bool breakdown;

	if (*task_var & TRACE_GRAPH_NOTRACE)
		return 0;

	/*
	 * A function in set_graph_notrace hides itself and its children;
	 * the return callback is needed to clear the bit again.
	 */
	if (ftrace_graph_notrace_addr(trace->func)) {
		*task_var |= TRACE_GRAPH_NOTRACE;
		return 1;
	}

	/* set_graph_function (top level) and max_graph_depth */
	if (ftrace_graph_ignore_func(gops, trace))
		return 0;

	breakdown = static_branch_unlikely(&func_duration_breakdown_key) &&
		    READ_ONCE(tr->func_duration_breakdown);
	frame = fgraph_reserve_data(gops->idx, breakdown ? sizeof(*frame) :
						FUNC_DURATION_FRAME_TIMES);
	if (unlikely(!frame)) {
		/* Not timed; the return still ends set_graph_function */
		func_duration_stats_drop_no_stack(rcu_dereference_raw(tr->func_duration_stats));
		return 1;
	}
	/* The clock now, or (32-bit) the children's time so far */
	if (READ_ONCE(tr->func_duration_stats_off))
		frame->mark = FUNC_DURATION_NOT_COUNTED;
	else
		frame->mark = FUNC_DURATION_HAS_CLOCK ?
			      func_duration_clock_mark(*task_var) : 0;
	frame->sleeptime = current->ftrace_sleeptime;

	/* Last: the call's time starts once it is set up */
	if (!breakdown) {
		frame->calltime = func_duration_clock();
		return 1;
	}
	/* The start and the task's totals at the same instant */
	local_irq_save(flags);
	frame->calltime = func_duration_clock();
	func_duration_bd_enter(fgraph_task_area(current),
			       READ_ONCE(func_duration_sched_gen), &frame->bd);
	local_irq_restore(flags);

	return 1;
}

/*
 * A call is written as funcduration, or with @parts as
 * funcduration_breakdown: an instance with the breakdown on writes every
 * call that way, its parts 0 where the call has none.
 */
static const struct func_duration_parts func_duration_no_parts;

static __always_inline int
func_duration_event_type(const struct func_duration_parts *parts)
{
	return parts ? TRACE_FUNC_DURATION_BREAKDOWN : TRACE_FUNC_DURATION;
}

/*
 * The address the call returns to. The core popped it from the shadow
 * stack and put it in @fregs where the architecture's ftrace_regs can
 * hold it; elsewhere, the call's frame is still on the shadow stack.
 */
static __always_inline unsigned long
func_duration_caller(struct ftrace_regs *fregs)
{
	if (IS_ENABLED(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS) && fregs)
		return ftrace_regs_get_instruction_pointer(fregs);
	return ftrace_graph_top_ret_addr(current);
}

static __always_inline unsigned int
func_duration_event_size(const struct func_duration_parts *parts)
{
	return parts ? sizeof(struct func_duration_breakdown_entry) :
		       sizeof(struct func_duration_entry);
}

/* The event's fields, in the ring buffer or in perf's buffer */
static __always_inline void
func_duration_fill(void *data, struct ftrace_graph_ret *trace,
		   unsigned long caller, u64 calltime, u64 duration,
		   const struct func_duration_parts *parts)
{
	unsigned long retval = 0;

#ifdef CONFIG_FUNCTION_GRAPH_RETVAL
	retval = trace->retval;
#endif
	if (parts) {
		struct func_duration_breakdown_entry *entry = data;

		entry->func = trace->func;
		entry->caller = caller;
		entry->calltime = calltime;
		entry->duration = duration;
		entry->running = parts->running;
		entry->runnable = parts->runnable;
		entry->blocked = parts->blocked;
		entry->irq = parts->irq;
		entry->retval = retval;
		entry->depth = trace->depth;
	} else {
		struct func_duration_entry *entry = data;

		entry->func = trace->func;
		entry->caller = caller;
		entry->calltime = calltime;
		entry->duration = duration;
		entry->retval = retval;
		entry->depth = trace->depth;
	}
}

/*
 * An event's filter and triggers, and perf's lists, are freed after
 * tracepoint_synchronize_unregister(), which waits for the readers of
 * tracepoint_srcu: a tracepoint runs its probes in that SRCU-fast read
 * side, and the writers of the funcduration event take it the same way.
 * It needs RCU watching and an online CPU, and a tracepoint never fires
 * elsewhere. fgraph's callbacks do: at the edges of idle, and on a CPU
 * going offline, which returns from smp_call_function_single() after
 * cpuhp_report_idle_dead() reported it dead to RCU. cpu_online() is
 * false from __cpu_disable() on, before that, and true again only after
 * the CPU reported itself to RCU when it comes back.
 */
static __always_inline bool func_duration_rcu_protected(void)
{
	return rcu_is_watching() && cpu_online(raw_smp_processor_id());
}

/*
 * The event's filter and triggers, run as an event's are: the triggers
 * that need no record first (trace_trigger_soft_disabled()), then the
 * others on the record, and the filter decides whether it stays. When
 * the instance's buffer is off or full, the triggers still get a record,
 * from trace_event_buffer_lock_reserve() (a per-CPU buffered event or
 * the temporary buffer), which is dropped after them: traceon fires and
 * a hist counts with tracing off. Out of line: without them, writing an
 * event costs one more test. Not event_trigger_unlock_commit(): a
 * trigger soft-enables the event, which has no enable file, so it stays
 * SOFT_DISABLED and every call would be discarded; and set_event_pid is
 * not this tracer's pid filter.
 */
static noinline void
func_duration_write_file(struct trace_event_file *file,
			 struct ftrace_graph_ret *trace, unsigned long caller,
			 u64 calltime, u64 duration,
			 const struct func_duration_parts *parts)
{
	unsigned int size = func_duration_event_size(parts);
	int type = func_duration_event_type(parts);
	unsigned long flags = READ_ONCE(file->flags);
	enum event_trigger_type tt = ETT_NONE;
	struct ring_buffer_event *event;
	struct trace_buffer *buffer;
	bool keep = true;
	void *entry;

	if (unlikely(!func_duration_rcu_protected())) {
		atomic_long_inc(&file->tr->func_duration_file_skipped);
		return;
	}
	guard(srcu_fast_notrace)(&tracepoint_srcu);

	if ((flags & EVENT_FILE_FL_TRIGGER_MODE) &&
	    !(flags & EVENT_FILE_FL_TRIGGER_COND))
		event_triggers_call(file, NULL, NULL, NULL);

	/* After them: a snapshot swaps the instance's buffer */
	buffer = file->tr->array_buffer.buffer;
	event = trace_buffer_lock_reserve(buffer, type, size, tracing_gen_ctx());
	if (!event) {
		if (!(flags & EVENT_FILE_FL_TRIGGER_COND))
			return;
		event = trace_event_buffer_lock_reserve(&buffer, file, type, size,
							tracing_gen_ctx());
		if (!event)
			return;
		keep = false;
	}

	entry = ring_buffer_event_data(event);
	func_duration_fill(entry, trace, caller, calltime, duration, parts);

	if (flags & EVENT_FILE_FL_TRIGGER_COND)
		tt = event_triggers_call(file, buffer, entry, event);

	if (!keep || ((flags & EVENT_FILE_FL_FILTERED) &&
		      !filter_match_preds(file->filter, entry)))
		__trace_event_discard_commit(buffer, event);
	else
		trace_buffer_unlock_commit_nostack(buffer, event);

	if (tt)
		event_triggers_post_call(file, tt);
}

/*
 * A plain event goes straight to the ring buffer: it is never one of the
 * trace core's buffered events, so trace_buffer_lock_reserve() and its
 * commit would only add a call level and a test each.
 */
static __always_inline void
func_duration_write(struct trace_array *tr, struct ftrace_graph_ret *trace,
		    unsigned long caller, u64 calltime, u64 duration,
		    u64 rettime, const struct func_duration_parts *parts)
{
	struct trace_event_file *file = parts ? tr->func_duration_breakdown_file :
						tr->func_duration_file;
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct trace_entry *entry;
	unsigned int trace_ctx;

	if (unlikely(file && (file->flags & (EVENT_FILE_FL_TRIGGER_MODE |
					     EVENT_FILE_FL_FILTERED)))) {
		func_duration_write_file(file, trace, caller, calltime, duration,
					 parts);
		return;
	}

	/*
	 * The context before the reserve, which disables preemption. The
	 * event is stamped at the return, when trace_clock is local.
	 */
	trace_ctx = tracing_gen_ctx();
	event = ring_buffer_lock_reserve_stamped(buffer,
						 func_duration_event_size(parts),
						 trace_clock_local, rettime);
	if (!event)
		return;	/* counted by the ring buffer as dropped */

	entry = ring_buffer_event_data(event);
	tracing_generic_entry_update(entry, func_duration_event_type(parts),
				     trace_ctx);
	func_duration_fill(entry, trace, caller, calltime, duration, parts);
	/* The task's comm, for the output, as any commit asks */
	__this_cpu_write(trace_taskinfo_save, true);
	ring_buffer_unlock_commit(buffer);
}

#ifdef CONFIG_PERF_EVENTS
/* perf has each event open: on from its register to its unregister */
static DEFINE_STATIC_KEY_FALSE(func_duration_perf_key);
static DEFINE_STATIC_KEY_FALSE(func_duration_perf_breakdown_key);

/**
 * func_duration_event_reg - register function of the funcduration events
 * @call: the event, funcduration or funcduration_breakdown
 * @type: what is asked
 * @data: unused
 *
 * The tracer writes the event, so there is nothing to register but
 * perf's use of it. perf frees its per-CPU lists and buffers after it
 * unregisters the event and waits for the readers of tracepoint_srcu:
 * the writer tests the event's key in that read side before it reads
 * them, so that the wait fences it, as it fences a tracepoint's probes.
 * Called under event_mutex, on perf's first register and last unregister
 * of each event.
 *
 * Return: 0
 */
int func_duration_event_reg(struct trace_event_call *call,
			    enum trace_reg type, void *data)
{
	struct static_key_false *key = &func_duration_perf_key;

	if (call == &event_funcduration_breakdown)
		key = &func_duration_perf_breakdown_key;

	switch (type) {
	case TRACE_REG_PERF_REGISTER:
		static_branch_enable(key);
		break;
	case TRACE_REG_PERF_UNREGISTER:
		static_branch_disable(key);
		break;
	default:
		break;
	}
	return 0;
}

/*
 * How long chosen kernel functions take, per task, is what the function
 * event tells: perf gets it on the same terms (perf_event_paranoid -1,
 * or CAP_PERFMON), counting included, not on a tracepoint's.
 */
static int func_duration_perf_perm(struct trace_event_call *call,
				   struct perf_event *p_event)
{
	/* The parent was checked: its children inherit it */
	if (p_event->parent)
		return 0;
	return perf_allow_tracepoint();
}

#ifdef CONFIG_FUNCTION_DURATION_DEBUG_HOLD
static void func_duration_debug_perf_read(void);
#else
static inline void func_duration_debug_perf_read(void) { }
#endif

static __always_inline bool func_duration_perf_on(struct trace_array *tr)
{
	return (static_branch_unlikely(&func_duration_perf_key) ||
		static_branch_unlikely(&func_duration_perf_breakdown_key)) &&
	       READ_ONCE(tr->func_duration_perf);
}

/*
 * perf and BPF: the event is one for every instance, so a call goes to
 * its perf events and BPF programs only from an instance whose
 * perf_enable is 1. A consumer sees the calls of the instances it asked
 * for, with their function set, pid filter and threshold, then applies
 * its own filter; the instance's event filter and triggers are those of
 * its ring buffer. perf's lists are RCU protected: where RCU does not
 * protect them, a call is counted as missed instead.
 */
static noinline void
func_duration_perf_write(struct trace_array *tr, struct ftrace_graph_ret *trace,
			 unsigned long caller, u64 calltime, u64 duration,
			 const struct func_duration_parts *parts)
{
	/* A perf raw record: the u32 size, then the entry, to a u64 */
	const int size = ALIGN(func_duration_event_size(parts) + sizeof(u32),
			       sizeof(u64)) - sizeof(u32);
	struct trace_event_call *call = parts ? &event_funcduration_breakdown :
						&event_funcduration;
	struct hlist_head *head;
	struct pt_regs *regs;
	void *entry;
	int rctx;

	if (unlikely(!func_duration_rcu_protected())) {
		atomic_long_inc(&tr->func_duration_perf_missed);
		return;
	}
	/*
	 * perf's unregister turns the event's key off, then waits for this
	 * read side before it frees its lists: tested again inside it.
	 */
	guard(srcu_fast_notrace)(&tracepoint_srcu);
	if (parts ? !static_branch_unlikely(&func_duration_perf_breakdown_key) :
		    !static_branch_unlikely(&func_duration_perf_key))
		return;
	func_duration_debug_perf_read();
	head = this_cpu_ptr(READ_ONCE(call->perf_events));
	if (!bpf_prog_array_valid(call) && hlist_empty(head))
		return;

	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry)
		return;	/* perf's recursion guard: an NMI within perf */
	perf_fetch_caller_regs(regs);
	func_duration_fill(entry, trace, caller, calltime, duration, parts);
	perf_trace_run_bpf_submit(entry, size, rctx, call, 1, regs, head, NULL);
}
#else
static inline bool func_duration_perf_on(struct trace_array *tr)
{
	return false;
}

static inline void
func_duration_perf_write(struct trace_array *tr, struct ftrace_graph_ret *trace,
			 unsigned long caller, u64 calltime, u64 duration,
			 const struct func_duration_parts *parts) { }
#endif

/* Count the call, and hand its duration to its counted caller. */
static __always_inline void
func_duration_return_stats(struct func_duration_stats *stats,
			   struct fgraph_ops *gops,
			   struct ftrace_graph_ret *trace,
			   unsigned long *task_var, u64 duration, u64 mark,
			   const struct func_duration_parts *parts)
{
	struct func_duration_frame *outer;
	bool ordered = (s64)duration >= 0;
	u64 children;

	if (FUNC_DURATION_HAS_CLOCK) {
		children = func_duration_clock_return(task_var, mark,
						      ordered ? duration : 0);
	} else {
		/* The closest caller that this instance timed */
		children = mark;
		outer = ordered ? fgraph_retrieve_parent_data(gops->idx, NULL, 1) : NULL;
		if (outer && outer->mark != FUNC_DURATION_NOT_COUNTED)
			outer->mark += duration;
	}

	if (ordered)
		func_duration_stats_add(stats, trace->func, duration,
					duration - min(children, duration), parts);
	else
		func_duration_stats_drop_unordered(stats);
}

#ifdef CONFIG_FUNCTION_DURATION_DEBUG_HOLD
/*
 * Tests of the teardown paths: the next return callback of the task
 * hold_pid names busy-waits hold_ms after it has looked up its gops and
 * trace array, while "holding" reads 1. One-shot: hold_pid is cleared
 * when the hold begins.
 */
static u32 func_duration_hold_pid;
static u32 func_duration_hold_ms;
static u32 func_duration_holding;

static void func_duration_debug_hold(void)
{
	u32 pid = READ_ONCE(func_duration_hold_pid);

	if (likely(!pid || pid != (u32)current->pid) || !in_task() ||
	    cmpxchg(&func_duration_hold_pid, pid, 0) != pid)
		return;
	WRITE_ONCE(func_duration_holding, 1);
	mdelay(READ_ONCE(func_duration_hold_ms));
	WRITE_ONCE(func_duration_holding, 0);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * Tests of perf's unregister: with a return callback of perf's task held
 * once it has unregistered the event, no call may read perf's lists
 * ("perf_reads_held").
 */
static atomic_t func_duration_perf_reads_held;

static void func_duration_debug_perf_read(void)
{
	if (READ_ONCE(func_duration_holding))
		atomic_inc(&func_duration_perf_reads_held);
}
#endif

static __init int init_func_duration_debug_hold(void)
{
	struct dentry *dir = debugfs_create_dir("function_duration", NULL);

	debugfs_create_u32("hold_pid", 0600, dir, &func_duration_hold_pid);
	debugfs_create_u32("hold_ms", 0600, dir, &func_duration_hold_ms);
	debugfs_create_u32("holding", 0400, dir, &func_duration_holding);
	debugfs_create_u32("fail_chunk_cpu", 0600, dir,
			   &func_duration_fail_chunk_cpu);
#ifdef CONFIG_PERF_EVENTS
	debugfs_create_atomic_t("perf_reads_held", 0600, dir,
				&func_duration_perf_reads_held);
#endif
	return 0;
}
late_initcall(init_func_duration_debug_hold);
#else
static inline void func_duration_debug_hold(void) { }
#endif

/*
 * With the instance's sleep-time option off, the time the task was
 * switched out is left out of the duration, and so out of the parts: of
 * a breakdown only the time on the CPU is left, running and irq.
 */
static u64 func_duration_no_sleep(struct func_duration_frame *frame,
				  u64 duration,
				  struct func_duration_parts *parts)
{
	u64 away = current->ftrace_sleeptime - frame->sleeptime;

	duration -= min(away, duration);
	if (parts) {
		parts->runnable = 0;
		parts->blocked = 0;
		parts->irq = min(parts->irq, duration);
		parts->running = duration - parts->irq;
	}
	return duration;
}

/*
 * What follows a call's timing: its statistics, then its event if it
 * took at least the threshold. @parts: the breakdown of a call that
 * noted the task's totals at its entry; @breakdown: the instance's
 * breakdown is on, and the event has its parts, known or not.
 */
static __always_inline void
func_duration_account(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
		      struct ftrace_regs *fregs, unsigned long *task_var,
		      struct func_duration_stats *stats,
		      struct func_duration_frame *frame, u64 duration,
		      u64 rettime, struct func_duration_parts *parts,
		      bool breakdown)
{
	struct trace_array *tr = gops->private;
	const struct func_duration_parts *event_parts;
	unsigned long caller;

	/*
	 * The clock is per CPU: a call that migrated may appear to end
	 * before it started. Such a duration means nothing.
	 */
	if (unlikely(!(READ_ONCE(tr->current_trace_flags->val) &
		       FUNC_DURATION_SLEEP_TIME)) && (s64)duration >= 0)
		duration = func_duration_no_sleep(frame, duration, parts);

	/* Counted if the statistics were on at its entry and are still on */
	if (!READ_ONCE(tr->func_duration_stats_off) &&
	    frame->mark != FUNC_DURATION_NOT_COUNTED)
		func_duration_return_stats(stats, gops, trace, task_var,
					   duration, frame->mark, parts);

	if ((s64)duration < 0 ||
	    duration < func_duration_threshold_get(tr))
		return;

	/* The event follows the instance's breakdown, known parts or not */
	event_parts = breakdown ? (parts ?: &func_duration_no_parts) : NULL;

	caller = func_duration_caller(fregs);
	/* The core holds the recursion lock, with preemption disabled */
	func_duration_write(tr, trace, caller, frame->calltime, duration,
			    rettime, event_parts);
	if (func_duration_perf_on(tr))
		func_duration_perf_write(tr, trace, caller, frame->calltime,
					 duration, event_parts);
}

/*
 * The return of a call with the instance's breakdown on. Out of line:
 * it takes the frame's size by address, which would give the common
 * return a stack protector. Each of the two returns has its own copy
 * of the accounting, the statistics and the event's write inlined.
 */
static noinline void
func_duration_return_bd(struct ftrace_graph_ret *trace, struct fgraph_ops *gops,
			struct ftrace_regs *fregs, unsigned long *task_var,
			struct func_duration_stats *stats)
{
	struct func_duration_parts *parts = NULL;
	struct func_duration_frame *frame;
	u64 duration, rettime;
	unsigned long flags;
	int size;

	/* No room on the shadow stack at entry: not timed */
	frame = fgraph_retrieve_data(gops->idx, &size);
	if (unlikely(!frame))
		return;

	/*
	 * A call that noted the task's totals on entry is broken down over
	 * the same window as its duration.
	 */
	if (size < sizeof(*frame)) {
		rettime = func_duration_clock();
		duration = rettime - frame->calltime;
	} else {
		local_irq_save(flags);
		rettime = func_duration_clock();
		duration = rettime - frame->calltime;
		if ((s64)duration >= 0 &&
		    func_duration_bd_return(fgraph_task_area(current),
					    READ_ONCE(func_duration_sched_gen),
					    &frame->bd, duration, &frame->parts))
			parts = &frame->parts;
		local_irq_restore(flags);
	}
	func_duration_account(trace, gops, fregs, task_var, stats, frame,
			      duration, rettime, parts, true);
}

static void func_duration_return(struct ftrace_graph_ret *trace,
				 struct fgraph_ops *gops,
				 struct ftrace_regs *fregs)
{
	unsigned long *task_var = fgraph_get_task_var(gops);
	struct trace_array *tr = gops->private;
	struct func_duration_stats *stats;
	struct func_duration_frame *frame;
	u64 rettime;

	/* Its own test, without looking the task variable up again */
	if (*task_var & TRACE_GRAPH_FL)
		ftrace_graph_addr_finish(gops, trace);

	if (*task_var & TRACE_GRAPH_NOTRACE) {
		*task_var &= ~TRACE_GRAPH_NOTRACE;
		return;
	}

	/*
	 * A reset or a restart of the statistics waits for the callbacks
	 * that may have read the pointer (func_duration_synchronize()).
	 */
	stats = rcu_dereference_raw(tr->func_duration_stats);
	func_duration_debug_hold();

	if (static_branch_unlikely(&func_duration_breakdown_key) &&
	    READ_ONCE(tr->func_duration_breakdown)) {
		func_duration_return_bd(trace, gops, fregs, task_var, stats);
		return;
	}

	/* No room on the shadow stack at entry: not timed */
	frame = fgraph_retrieve_data(gops->idx, NULL);
	if (unlikely(!frame))
		return;

	rettime = func_duration_clock();
	func_duration_account(trace, gops, fregs, task_var, stats, frame,
			      rettime - frame->calltime, rettime, NULL, false);
}

/* ---------------------------------------------------------------------
 * Output
 *
 * The event prints like every other: the common context (task, CPU,
 * flags, and the timestamp of the return, in the instance's trace_clock)
 * comes from the trace core under the usual options, then this body:
 *   [CALLTIME |] MARK DURATION us |  FUNCTION [<- CALLER]
 */

static struct tracer_opt func_duration_opts[] = {
	{ .name = "funcduration-calltime", .bit = FUNC_DURATION_PRINT_CALLTIME },
	{ .name = "funcduration-retval", .bit = FUNC_DURATION_PRINT_RETVAL },
	{ .name = "funcduration-sleep-time", .bit = FUNC_DURATION_SLEEP_TIME },
	{ } /* Empty entry */
};

static struct tracer_flags func_duration_flags = {
	.val	= FUNC_DURATION_SLEEP_TIME,
	.opts	= func_duration_opts,
};

static struct tracer func_duration_tracer;

/* The instance's options while function_duration is its tracer */
static u32 func_duration_options(struct trace_array *tr)
{
	if (!tr || tr->current_trace != &func_duration_tracer)
		return func_duration_flags.val;
	return tr->current_trace_flags->val;
}

/* A symbol as %ps does (with its module), under sym-offset and sym-addr */
static void func_duration_print_sym(struct trace_seq *s, unsigned long ip,
				    int sym_flags)
{
	if (sym_flags & TRACE_ITER(SYM_OFFSET))
		trace_seq_printf(s, "%pS", (void *)ip);
	else
		trace_seq_printf(s, "%ps", (void *)ip);
	if (sym_flags & TRACE_ITER(SYM_ADDR))
		trace_seq_printf(s, " <%0*lx>", (int)(2 * sizeof(ip)), ip);
}

/* ns as microseconds with 3 decimals */
static void func_duration_print_us(struct trace_seq *s, const char *label,
				   u64 ns)
{
	u32 rem = do_div(ns, NSEC_PER_USEC);

	trace_seq_printf(s, "%s%llu.%03u", label, ns, rem);
}

/* A call as either event has it: @breakdown says whether @parts are set */
struct func_duration_call {
	unsigned long			func, caller, retval;
	u64				calltime, duration;
	int				depth;
	bool				breakdown;
	struct func_duration_parts	parts;
};

static void func_duration_call_of(const struct trace_entry *ent,
				  struct func_duration_call *call)
{
	const struct func_duration_breakdown_entry *bd;
	const struct func_duration_entry *fd;

	if (ent->type == TRACE_FUNC_DURATION_BREAKDOWN) {
		bd = container_of(ent, struct func_duration_breakdown_entry, ent);
		*call = (struct func_duration_call) {
			.func = bd->func, .caller = bd->caller,
			.retval = bd->retval, .calltime = bd->calltime,
			.duration = bd->duration, .depth = bd->depth,
			.breakdown = true,
			.parts = { .running = bd->running,
				   .runnable = bd->runnable,
				   .blocked = bd->blocked, .irq = bd->irq },
		};
		return;
	}
	fd = container_of(ent, struct func_duration_entry, ent);
	*call = (struct func_duration_call) {
		.func = fd->func, .caller = fd->caller, .retval = fd->retval,
		.calltime = fd->calltime, .duration = fd->duration,
		.depth = fd->depth,
	};
}

static enum print_line_t func_duration_event_trace(struct trace_iterator *iter,
						   int sym_flags,
						   struct trace_event *event)
{
	u32 options = func_duration_options(iter->tr);
	const struct func_duration_parts *parts = NULL;
	struct trace_seq *s = &iter->seq;
	struct func_duration_call call;
	u64 duration, calltime;
	u32 rem;

	func_duration_call_of(iter->ent, &call);
	if (call.breakdown)
		parts = &call.parts;

	/* The call time is in the clock of the duration: trace_clock_local() */
	if (options & FUNC_DURATION_PRINT_CALLTIME) {
		calltime = call.calltime;
		rem = do_div(calltime, NSEC_PER_SEC);
		trace_seq_printf(s, "%5llu.%06u | ", calltime,
				 rem / (u32)NSEC_PER_USEC);
	}

	/* The function graph delay marker, then microseconds */
	duration = call.duration;
	rem = do_div(duration, NSEC_PER_USEC);
	trace_seq_printf(s, "%c %9llu.%03u us |  ",
			 trace_find_mark(call.duration), duration, rem);

	func_duration_print_sym(s, call.func, sym_flags);
	if (!iter->tr || (iter->tr->trace_flags & TRACE_ITER(PRINT_PARENT))) {
		trace_seq_puts(s, " <- ");
		func_duration_print_sym(s, call.caller, sym_flags);
	}
	/* A call with known parts: they add up to the duration */
	if (parts && (parts->running | parts->runnable | parts->blocked |
		      parts->irq)) {
		func_duration_print_us(s, " = run ", parts->running);
		func_duration_print_us(s, " + wait ", parts->runnable);
		func_duration_print_us(s, " + blk ", parts->blocked);
		func_duration_print_us(s, " + irq ", parts->irq);
		trace_seq_puts(s, " us");
	}
	if (options & FUNC_DURATION_PRINT_RETVAL)
		trace_seq_printf(s, " ret=0x%lx", call.retval);
	trace_seq_putc(s, '\n');

	return trace_handle_return(s);
}

static enum print_line_t func_duration_event_raw(struct trace_iterator *iter,
						 int sym_flags,
						 struct trace_event *event)
{
	struct func_duration_call call;
	struct trace_seq *s = &iter->seq;

	func_duration_call_of(iter->ent, &call);
	trace_seq_printf(s, "%lx %lx %llu %llu %d", call.func, call.caller,
			 call.calltime, call.duration, call.depth);
	if (call.breakdown)
		trace_seq_printf(s, " %llu %llu %llu %llu", call.parts.running,
				 call.parts.runnable, call.parts.blocked,
				 call.parts.irq);
	trace_seq_printf(s, " %lx\n", call.retval);

	return trace_handle_return(s);
}

static enum print_line_t func_duration_event_hex(struct trace_iterator *iter,
						 int sym_flags,
						 struct trace_event *event)
{
	struct func_duration_call call;
	struct trace_seq *s = &iter->seq;

	func_duration_call_of(iter->ent, &call);
	SEQ_PUT_HEX_FIELD(s, call.func);
	SEQ_PUT_HEX_FIELD(s, call.caller);
	SEQ_PUT_HEX_FIELD(s, call.calltime);
	SEQ_PUT_HEX_FIELD(s, call.duration);
	SEQ_PUT_HEX_FIELD(s, call.depth);
	if (call.breakdown) {
		SEQ_PUT_HEX_FIELD(s, call.parts.running);
		SEQ_PUT_HEX_FIELD(s, call.parts.runnable);
		SEQ_PUT_HEX_FIELD(s, call.parts.blocked);
		SEQ_PUT_HEX_FIELD(s, call.parts.irq);
	}
	SEQ_PUT_HEX_FIELD(s, call.retval);

	return trace_handle_return(s);
}

static enum print_line_t func_duration_event_bin(struct trace_iterator *iter,
						 int sym_flags,
						 struct trace_event *event)
{
	struct func_duration_call call;
	struct trace_seq *s = &iter->seq;

	func_duration_call_of(iter->ent, &call);
	SEQ_PUT_FIELD(s, call.func);
	SEQ_PUT_FIELD(s, call.caller);
	SEQ_PUT_FIELD(s, call.calltime);
	SEQ_PUT_FIELD(s, call.duration);
	SEQ_PUT_FIELD(s, call.depth);
	if (call.breakdown) {
		SEQ_PUT_FIELD(s, call.parts.running);
		SEQ_PUT_FIELD(s, call.parts.runnable);
		SEQ_PUT_FIELD(s, call.parts.blocked);
		SEQ_PUT_FIELD(s, call.parts.irq);
	}
	SEQ_PUT_FIELD(s, call.retval);

	return trace_handle_return(s);
}

static struct trace_event_functions func_duration_event_funcs = {
	.trace		= func_duration_event_trace,
	.raw		= func_duration_event_raw,
	.hex		= func_duration_event_hex,
	.binary		= func_duration_event_bin,
};

static struct trace_event func_duration_event = {
	.type		= TRACE_FUNC_DURATION,
	.funcs		= &func_duration_event_funcs,
};

static struct trace_event func_duration_breakdown_event = {
	.type		= TRACE_FUNC_DURATION_BREAKDOWN,
	.funcs		= &func_duration_event_funcs,
};

/*
 * A full buffer loses events: the oldest (overwrite mode) or the newest
 * (producer-consumer mode). Say how many, so that a trace cut short
 * never looks complete.
 */
static void func_duration_print_lost(struct seq_file *m,
				     struct trace_iterator *iter)
{
	struct trace_buffer *buffer = iter->array_buffer->buffer;
	unsigned long overrun = 0, dropped = 0;
	int cpu;

	for_each_tracing_cpu(cpu) {
		overrun += ring_buffer_overrun_cpu(buffer, cpu);
		dropped += ring_buffer_dropped_events_cpu(buffer, cpu);
	}
	seq_printf(m, "# lost events: %lu overwritten, %lu dropped with the buffer full\n",
		   overrun, dropped);
}

static bool func_duration_file_on(struct trace_event_file *file)
{
	return file && (READ_ONCE(file->flags) &
			(EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_FILTERED));
}

/* While an event has a filter or triggers, or some call skipped them */
static void func_duration_print_skipped(struct seq_file *m,
					struct trace_array *tr)
{
	long skipped = atomic_long_read(&tr->func_duration_file_skipped);
	bool on = func_duration_file_on(tr->func_duration_file) ||
		  func_duration_file_on(tr->func_duration_breakdown_file);

	if (on || skipped)
		seq_printf(m, "# filter and triggers: %s, %ld calls skipped where RCU does not protect them\n",
			   on ? "on" : "off", skipped);
}

/* The threshold and the losses, then the header every tracer has */
static void func_duration_print_header(struct seq_file *m)
{
	struct trace_iterator *iter = m->private;

	if (iter->tr->trace_flags & TRACE_ITER(CONTEXT_INFO)) {
		seq_printf(m, "# threshold: %llu ns\n",
			   func_duration_threshold_get(iter->tr));
		func_duration_print_lost(m, iter);
		func_duration_print_skipped(m, iter->tr);
		if (READ_ONCE(iter->tr->func_duration_perf))
			seq_printf(m, "# perf and BPF: on, %ld calls missed\n",
				   atomic_long_read(&iter->tr->func_duration_perf_missed));
		if (READ_ONCE(iter->tr->func_duration_breakdown))
			seq_puts(m, "# breakdown: on (DURATION = run + wait + blk + irq us)\n");
	}
	trace_default_header(m);
}

/* ---------------------------------------------------------------------
 * The tracer
 */

/*
 * fgraph keeps the time each task spends switched out while some user
 * leaves sleep time out: count this instance in while its option is off.
 */
static void func_duration_sleep_time(bool on)
{
	if (on) {
		fgraph_no_sleep_time--;
		if (WARN_ON_ONCE(fgraph_no_sleep_time < 0))
			fgraph_no_sleep_time = 0;
	} else {
		fgraph_no_sleep_time++;
	}
}

static int func_duration_set_flag(struct trace_array *tr, u32 old_flags,
				  u32 bit, int set)
{
	if (bit != FUNC_DURATION_SLEEP_TIME ||
	    tr->current_trace != &func_duration_tracer ||
	    !!set == !!(old_flags & bit))
		return 0;
	func_duration_sleep_time(set);
	return 0;
}

static int func_duration_trace_init(struct trace_array *tr)
{
	bool sleep_time = tr->current_trace_flags->val & FUNC_DURATION_SLEEP_TIME;
	int ret;

	ret = func_duration_stats_start(tr);
	if (ret) {
		func_duration_log_err(tr, "function_duration", "current_tracer",
				      FUNC_DURATION_ERR_NOMEM);
		return ret;
	}

	/*
	 * The instance's events/ftrace/funcduration, with its filter and
	 * triggers, from the first call (a boot-time instance's tracer
	 * starts before its tracefs files exist). tr->events changes only
	 * under trace_types_lock too, which is held here: event_mutex
	 * comes before it and cannot be taken.
	 */
	lockdep_assert_held(&trace_types_lock);
	tr->func_duration_file = __find_event_file(tr, "ftrace", "funcduration");
	tr->func_duration_breakdown_file =
		__find_event_file(tr, "ftrace", "funcduration_breakdown");

	tr->gops->entryfunc = func_duration_entry;
	tr->gops->retfunc = func_duration_return;
	if (!sleep_time)
		func_duration_sleep_time(false);

	/* Make sure the callbacks are visible before they can be called. */
	smp_mb();

	ret = register_ftrace_graph(tr->gops);
	if (ret == -ENOSPC)
		func_duration_log_err(tr, "function_duration", "current_tracer",
				      FUNC_DURATION_ERR_NO_SLOT);
	if (ret) {
		if (!sleep_time)
			func_duration_sleep_time(true);
		func_duration_stats_stop(tr);
		return ret;
	}
	/* After the graph hooks: every task has its shadow stack then */
	if (READ_ONCE(tr->func_duration_breakdown)) {
		ret = func_duration_sched_get();
		if (ret) {
			func_duration_log_err(tr, "function_duration",
					      "current_tracer",
					      FUNC_DURATION_ERR_NOMEM);
			unregister_ftrace_graph(tr->gops);
			func_duration_synchronize();
			if (!sleep_time)
				func_duration_sleep_time(true);
			func_duration_stats_stop(tr);
			return ret;
		}
		tr->func_duration_sched_held = true;
	}
	tracing_start_cmdline_record();

	return 0;
}

/*
 * Once the tracer is reset, none of its callbacks runs: the statistics
 * can then be cleared or freed in place, and an instance's gops and
 * buffers after them. unregister_ftrace_graph() does not wait for a
 * callback still running on another CPU: wait for every context one
 * runs in.
 */
static void func_duration_trace_reset(struct trace_array *tr)
{
	tracing_stop_cmdline_record();
	if (tr->func_duration_sched_held) {
		func_duration_sched_put();
		tr->func_duration_sched_held = false;
	}
	unregister_ftrace_graph(tr->gops);
	func_duration_synchronize();
	if (!(tr->current_trace_flags->val & FUNC_DURATION_SLEEP_TIME))
		func_duration_sleep_time(true);
	func_duration_stats_stop(tr);
}

#if defined(CONFIG_FTRACE_SELFTEST) && defined(CONFIG_DYNAMIC_FTRACE)
static int trace_selftest_startup_function_duration(struct tracer *trace,
						    struct trace_array *tr);
#endif

static struct tracer func_duration_tracer __tracer_data = {
	.name			= "function_duration",
	.init			= func_duration_trace_init,
	.reset			= func_duration_trace_reset,
	.print_header		= func_duration_print_header,
	.default_flags		= &func_duration_flags,
	.set_flag		= func_duration_set_flag,
	.allow_instances	= true,
#if defined(CONFIG_FTRACE_SELFTEST) && defined(CONFIG_DYNAMIC_FTRACE)
	.selftest		= trace_selftest_startup_function_duration,
#endif
};

/* ---------------------------------------------------------------------
 * tracefs: function_duration/threshold_ns
 */

/* Serializes the writers of a threshold: the latch takes one at a time */
static DEFINE_MUTEX(func_duration_threshold_lock);

/**
 * func_duration_threshold_set - set an instance's function_duration threshold
 * @tr: the instance
 * @ns: calls shorter than this many nanoseconds write no event
 *
 * The return callbacks of every CPU read it without a lock, in any
 * context, and see either the old or the new value (on 32-bit, through
 * the latch of struct func_duration_threshold). Can sleep.
 */
void func_duration_threshold_set(struct trace_array *tr, u64 ns)
{
	struct func_duration_threshold *t = &tr->func_duration_threshold;

	guard(mutex)(&func_duration_threshold_lock);
#if BITS_PER_LONG == 32
	write_seqcount_latch_begin(&t->seq);
	t->ns[0] = ns;
	write_seqcount_latch(&t->seq);
	t->ns[1] = ns;
	write_seqcount_latch_end(&t->seq);
#else
	WRITE_ONCE(t->ns, ns);
#endif
}

static ssize_t threshold_read(struct file *filp, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;

	return func_duration_read_number(ubuf, cnt, ppos,
					 func_duration_threshold_get(tr));
}

static ssize_t threshold_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;
	char buf[FUNC_DURATION_INPUT_MAX + 1];
	u64 val;
	int ret;

	ret = func_duration_get_input(tr, "threshold_ns", ubuf, cnt, buf,
				      sizeof(buf));
	if (ret)
		return ret;
	if (func_duration_parse_ns(buf, &val)) {
		func_duration_log_input_err(tr, "threshold_ns", buf,
					    FUNC_DURATION_ERR_NUMBER);
		return -EINVAL;
	}

	func_duration_threshold_set(tr, val);
	*ppos += cnt;

	return cnt;
}

static const struct file_operations threshold_fops = {
	.open		= tracing_open_generic_tr,
	.read		= threshold_read,
	.write		= threshold_write,
	.release	= tracing_release_generic_tr,
	.llseek		= generic_file_llseek,
};

/* function_duration/perf_enable: hand this instance's calls to perf and BPF */
static ssize_t perf_enable_read(struct file *filp, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;

	return func_duration_read_number(ubuf, cnt, ppos,
					 READ_ONCE(tr->func_duration_perf));
}

static ssize_t perf_enable_write(struct file *filp, const char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;
	bool enable;
	int ret;

	ret = func_duration_get_bool(tr, "perf_enable", ubuf, cnt, &enable);
	if (ret)
		return ret;

	WRITE_ONCE(tr->func_duration_perf, enable);
	*ppos += cnt;

	return cnt;
}

static const struct file_operations perf_enable_fops = {
	.open		= tracing_open_generic_tr,
	.read		= perf_enable_read,
	.write		= perf_enable_write,
	.release	= tracing_release_generic_tr,
	.llseek		= generic_file_llseek,
};

/*
 * function_duration/breakdown: break this instance's calls down into
 * running, runnable, blocked and irq time. Switched while the tracer
 * runs, it starts or stops sharing the scheduler probes at once.
 */
static ssize_t breakdown_read(struct file *filp, char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;

	return func_duration_read_number(ubuf, cnt, ppos,
					 READ_ONCE(tr->func_duration_breakdown));
}

/**
 * func_duration_set_breakdown - turn an instance's breakdown on or off
 * @tr: the instance
 * @enable: the new setting
 *
 * The probes of the breakdown run while some instance's tracer runs
 * with it on: started or stopped here when the tracer already runs
 * (tracefs, and bootconfig after ftrace= started the tracer), else
 * with the tracer.
 *
 * Return: 0, -ENOMEM when the probes could not start, or -EOPNOTSUPP
 * on PREEMPT_RT (the setting is then unchanged).
 */
int func_duration_set_breakdown(struct trace_array *tr, bool enable)
{
	int ret;

	/*
	 * On PREEMPT_RT, softirqs and interrupt handlers run in threads
	 * that preempt the task: their time would count as runnable, and
	 * the per-CPU interrupt nesting would span other tasks.
	 */
	if (enable && IS_ENABLED(CONFIG_PREEMPT_RT))
		return -EOPNOTSUPP;

	guard(mutex)(&trace_types_lock);
	if (tr->current_trace == &func_duration_tracer &&
	    enable != tr->func_duration_sched_held) {
		if (enable) {
			ret = func_duration_sched_get();
			if (ret)
				return ret;
		} else {
			func_duration_sched_put();
		}
		tr->func_duration_sched_held = enable;
	}
	WRITE_ONCE(tr->func_duration_breakdown, enable);
	return 0;
}

static ssize_t breakdown_write(struct file *filp, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	struct trace_array *tr = filp->private_data;
	bool enable;
	int ret;

	ret = func_duration_get_bool(tr, "breakdown", ubuf, cnt, &enable);
	if (ret)
		return ret;

	ret = func_duration_set_breakdown(tr, enable);
	if (ret) {
		func_duration_log_err(tr, "breakdown", "1",
				      ret == -EOPNOTSUPP ?
				      FUNC_DURATION_ERR_PREEMPT_RT :
				      FUNC_DURATION_ERR_NOMEM);
		return ret;
	}
	*ppos += cnt;

	return cnt;
}

static const struct file_operations breakdown_fops = {
	.open		= tracing_open_generic_tr,
	.read		= breakdown_read,
	.write		= breakdown_write,
	.release	= tracing_release_generic_tr,
	.llseek		= generic_file_llseek,
};

/**
 * func_duration_init_tracefs - create an instance's function_duration files
 * @tr: the trace array (top level or instance)
 * @d_tracer: the instance's tracefs directory
 *
 * Called when the tracefs directory of @tr is populated. A failure is
 * reported and leaves the instance usable without these files.
 */
void func_duration_init_tracefs(struct trace_array *tr, struct dentry *d_tracer)
{
	struct dentry *dir;

	dir = tracefs_create_dir("function_duration", d_tracer);
	if (!dir) {
		pr_warn("function_duration: could not create tracefs directory\n");
		return;
	}

	trace_create_file("threshold_ns", TRACE_MODE_WRITE, dir, tr,
			  &threshold_fops);
	if (IS_ENABLED(CONFIG_PERF_EVENTS))
		trace_create_file("perf_enable", TRACE_MODE_WRITE, dir, tr,
				  &perf_enable_fops);
	trace_create_file("breakdown", TRACE_MODE_WRITE, dir, tr,
			  &breakdown_fops);
	func_duration_stats_init_tracefs(tr, dir);
}

static int __init set_func_duration_threshold(char *str)
{
	if (func_duration_parse_ns(str, &func_duration_boot_threshold))
		pr_warn("function_duration: bad function_duration_threshold=%s\n", str);
	return 1;
}
__setup("function_duration_threshold=", set_func_duration_threshold);

/* ---------------------------------------------------------------------
 * Boot-time selftest
 */

#if defined(CONFIG_FTRACE_SELFTEST) && defined(CONFIG_DYNAMIC_FTRACE)
/* Is @caller an address inside @func? */
static __init bool func_duration_selftest_in(unsigned long caller, void *func)
{
	unsigned long size, offset;

	if (!IS_ENABLED(CONFIG_KALLSYMS))
		return true;
	return kallsyms_lookup_size_offset(caller, &size, &offset) &&
	       caller - offset == (unsigned long)func;
}

/*
 * Trace msleep(20) of this task with @threshold; return the number of
 * events it produced, or -EINVAL if an event of this task is not a
 * correct funcduration event for msleep() called from here. The
 * duration is not compared with 20 ms: msleep() counts jiffies from the
 * last tick, and when ticks come late (an emulator on a loaded host),
 * jiffies lag the trace clock by more than the jiffy msleep() adds
 * (19.2 ms was seen under TCG).
 */
static noinline __init int
func_duration_selftest_run(struct tracer *trace, struct trace_array *tr,
			   u64 threshold)
{
	/* With IBT the traced address is past the function's endbr. */
	unsigned long msleep_ip = ftrace_location((unsigned long)msleep);
	struct trace_buffer *buffer = tr->array_buffer.buffer;
	struct ring_buffer_event *event;
	struct func_duration_entry *entry;
	int count = 0;
	int cpu, ret;

	tracing_reset_online_cpus(&tr->array_buffer);
	func_duration_threshold_set(tr, threshold);
	ret = tracer_init(trace, tr);
	if (ret)
		return ret;
	msleep(20);
	tracing_stop();
	trace->reset(tr);

	for_each_online_cpu(cpu) {
		while ((event = ring_buffer_consume(buffer, cpu, NULL, NULL))) {
			entry = ring_buffer_event_data(event);
			if (entry->ent.pid != current->pid)
				continue;
			if (entry->ent.type != TRACE_FUNC_DURATION ||
			    entry->func != msleep_ip ||
			    !func_duration_selftest_in(entry->caller,
						       func_duration_selftest_run) ||
			    entry->duration < threshold) {
				pr_warn("function_duration selftest: bad event: type %d %ps <- %pS %llu ns\n",
					entry->ent.type, (void *)entry->func,
					(void *)entry->caller, entry->duration);
				count = -EINVAL;
			} else if (count >= 0) {
				count++;
			}
		}
	}
	tracing_start();

	return count;
}

static __init int
trace_selftest_startup_function_duration(struct tracer *trace,
					 struct trace_array *tr)
{
	u64 saved = func_duration_threshold_get(tr);
	char filter[] = "msleep";
	int ret;

	/* The test replaces the top-level filter, which was given at boot. */
	if (ftrace_filter_param) {
		pr_info("function_duration selftest: boot filter set, skipped\n");
		return 0;
	}

	ret = ftrace_set_filter(tr->ops, filter, strlen(filter), 1);
	if (ret)
		goto out;

	/* A call that reaches the threshold writes exactly one event. */
	ret = func_duration_selftest_run(trace, tr, 500 * NSEC_PER_USEC);
	if (ret != 1) {
		pr_warn("function_duration selftest: expected 1 event for msleep(20), got %d\n",
			ret);
		ret = -EINVAL;
		goto out_filter;
	}

	/* A call shorter than the threshold writes none. */
	ret = func_duration_selftest_run(trace, tr, 10ULL * NSEC_PER_SEC);
	if (ret != 0) {
		pr_warn("function_duration selftest: threshold did not filter: %d events\n",
			ret);
		ret = -EINVAL;
	}

out_filter:
	ftrace_set_filter(tr->ops, NULL, 0, 1);
out:
	func_duration_threshold_set(tr, saved);
	tracing_reset_online_cpus(&tr->array_buffer);
	return ret;
}
#endif /* CONFIG_FTRACE_SELFTEST && CONFIG_DYNAMIC_FTRACE */

static __init int init_func_duration_tracer(void)
{
	struct trace_event_call *calls[] = {
		&event_funcduration, &event_funcduration_breakdown,
	};
	int i;

	/* Before the event directories exist: the writer runs both */
	for (i = 0; i < ARRAY_SIZE(calls); i++) {
		calls[i]->flags |= TRACE_EVENT_FL_TRIGGER | TRACE_EVENT_FL_FILTER |
				   TRACE_EVENT_FL_BPF;
#ifdef CONFIG_PERF_EVENTS
		calls[i]->perf_perm = func_duration_perf_perm;
#endif
	}

	func_duration_threshold_set(top_trace_array(), func_duration_boot_threshold);

	if (!register_trace_event(&func_duration_event))
		goto err;
	if (!register_trace_event(&func_duration_breakdown_event))
		goto err_event;

	if (register_tracer(&func_duration_tracer)) {
		pr_warn("function_duration: could not register tracer\n");
		unregister_trace_event(&func_duration_breakdown_event);
		unregister_trace_event(&func_duration_event);
		return 1;
	}

	return 0;

err_event:
	unregister_trace_event(&func_duration_event);
err:
	pr_warn("function_duration: could not register event output\n");
	return 1;
}
core_initcall(init_func_duration_tracer);
