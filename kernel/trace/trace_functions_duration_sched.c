// SPDX-License-Identifier: GPL-2.0
/*
 * function_duration: the probes behind the breakdown of a call's duration.
 *
 * While an instance with function_duration/breakdown set runs the tracer,
 * probes on sched_switch and the interrupt tracepoints keep each task's
 * running totals of the time it was off its CPU, waited on runqueues and
 * was in interrupts (struct func_duration_task, in its shadow stack's
 * task area); the tracer's callbacks note them on a call's entry and take
 * the difference on its return (trace_functions_duration.h). The wait is
 * the scheduler's sched_info, read at the switch-in, so that wakeups run
 * no probe. The probes are shared by all instances and registered only
 * while one needs them: off, the scheduler and the interrupts pay
 * nothing.
 *
 * Interrupts: the hard interrupt handlers (irq_handler_entry/exit), the
 * softirqs (softirq_entry/exit, also where they run in task context) and,
 * on x86, the local APIC timer (local_timer_entry/exit). Not seen, and so
 * counted as running: the entry and exit code around a handler, the other
 * x86 system vectors (IPIs, irq_work), and NMIs. This is what the kernel
 * tells at little cost without IRQ_TIME_ACCOUNTING, which distributions
 * leave off; osnoise takes its interrupt times from the same tracepoints.
 */
#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/tracepoint.h>
#include <trace/events/irq.h>
#include <trace/events/sched.h>
#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/trace/irq_vectors.h>
#endif

#include "trace.h"
#include "trace_functions_duration.h"

/*
 * The generation of the totals, 0 while the probes are not all live.
 * Written under trace_types_lock.
 */
u32 func_duration_sched_gen;
static u32 func_duration_sched_last_gen;
static unsigned int func_duration_sched_users;
DEFINE_STATIC_KEY_FALSE(func_duration_breakdown_key);

static DEFINE_PER_CPU(struct func_duration_cpu_irq, func_duration_cpu_irq);

static_assert(sizeof(struct func_duration_task) <= FGRAPH_TASK_AREA_SIZE);

/*
 * Called with the runqueue locked and interrupts disabled, before the
 * scheduler's sched_info_switch(): @next's sched_info still says since
 * when it waits on this runqueue, on the runqueue's clock, which is
 * local_clock()'s.
 */
static void func_duration_probe_switch(void *ignore, bool preempt,
				       struct task_struct *prev,
				       struct task_struct *next,
				       unsigned int prev_state)
{
	u32 gen = READ_ONCE(func_duration_sched_gen);
	struct func_duration_task *t;
	u64 now;

	if (!gen)
		return;
	/* local_clock() without its preemption pair: interrupts are off */
	now = local_clock_noinstr();

	t = fgraph_task_area(prev);
	if (t)
		func_duration_task_switch_out(t, gen, now,
					      prev->sched_info.run_delay);
	t = fgraph_task_area(next);
	if (t)
		func_duration_task_switch_in(t, gen, now,
					     next->sched_info.run_delay,
					     next->sched_info.last_queued);
}

static void func_duration_irq_begin(void)
{
	u32 gen = READ_ONCE(func_duration_sched_gen);
	unsigned long flags;

	if (!gen)
		return;
	/*
	 * Softirqs run with interrupts on: a hard one could nest in here.
	 * raw_: inside the irq and softirq tracepoints, no irq-flags
	 * tracing (lockdep, the preemptirq events) on every interrupt.
	 */
	raw_local_irq_save(flags);
	func_duration_irq_enter(this_cpu_ptr(&func_duration_cpu_irq), gen,
				trace_clock_local());
	raw_local_irq_restore(flags);
}

static void func_duration_irq_end(void)
{
	u32 gen = READ_ONCE(func_duration_sched_gen);
	struct func_duration_task *t;
	unsigned long flags;
	u64 ns;

	if (!gen)
		return;
	raw_local_irq_save(flags);
	ns = func_duration_irq_exit(this_cpu_ptr(&func_duration_cpu_irq), gen,
				    trace_clock_local());
	if (ns) {
		t = fgraph_task_area(current);
		if (t)
			func_duration_task_add_irq(t, gen, ns);
	}
	raw_local_irq_restore(flags);
}

static void func_duration_probe_irq_entry(void *ignore, int irq,
					  struct irqaction *action)
{
	func_duration_irq_begin();
}

static void func_duration_probe_irq_exit(void *ignore, int irq,
					 struct irqaction *action, int ret)
{
	func_duration_irq_end();
}

static void func_duration_probe_softirq_entry(void *ignore, unsigned int vec)
{
	func_duration_irq_begin();
}

static void func_duration_probe_softirq_exit(void *ignore, unsigned int vec)
{
	func_duration_irq_end();
}

#ifdef CONFIG_X86_LOCAL_APIC
static void func_duration_probe_timer_entry(void *ignore, int vector)
{
	func_duration_irq_begin();
}

static void func_duration_probe_timer_exit(void *ignore, int vector)
{
	func_duration_irq_end();
}

static int func_duration_register_arch(void)
{
	int ret;

	ret = register_trace_local_timer_entry(func_duration_probe_timer_entry, NULL);
	if (ret)
		return ret;
	ret = register_trace_local_timer_exit(func_duration_probe_timer_exit, NULL);
	if (ret)
		unregister_trace_local_timer_entry(func_duration_probe_timer_entry, NULL);
	return ret;
}

static void func_duration_unregister_arch(void)
{
	unregister_trace_local_timer_exit(func_duration_probe_timer_exit, NULL);
	unregister_trace_local_timer_entry(func_duration_probe_timer_entry, NULL);
}
#else
static int func_duration_register_arch(void) { return 0; }
static void func_duration_unregister_arch(void) { }
#endif

static void func_duration_unregister_probes(int registered)
{
	switch (registered) {
	case 6:
		func_duration_unregister_arch();
		fallthrough;
	case 5:
		unregister_trace_softirq_exit(func_duration_probe_softirq_exit, NULL);
		fallthrough;
	case 4:
		unregister_trace_softirq_entry(func_duration_probe_softirq_entry, NULL);
		fallthrough;
	case 3:
		unregister_trace_irq_handler_exit(func_duration_probe_irq_exit, NULL);
		fallthrough;
	case 2:
		unregister_trace_irq_handler_entry(func_duration_probe_irq_entry, NULL);
		fallthrough;
	case 1:
		unregister_trace_sched_switch(func_duration_probe_switch, NULL);
	}
}

/* Return how many of the probes are registered: 6 when all are */
static int func_duration_register_probes(void)
{
	if (register_trace_sched_switch(func_duration_probe_switch, NULL))
		return 0;
	if (register_trace_irq_handler_entry(func_duration_probe_irq_entry, NULL))
		return 1;
	if (register_trace_irq_handler_exit(func_duration_probe_irq_exit, NULL))
		return 2;
	if (register_trace_softirq_entry(func_duration_probe_softirq_entry, NULL))
		return 3;
	if (register_trace_softirq_exit(func_duration_probe_softirq_exit, NULL))
		return 4;
	if (func_duration_register_arch())
		return 5;
	return 6;
}

/**
 * func_duration_sched_get - start the probes of the breakdown, or share them
 *
 * Called with trace_types_lock held, by an instance that starts to break
 * its calls down. The totals of a new generation begin once every CPU
 * runs the probes: a task is accounted from the first probe or call of
 * it seen in that generation.
 *
 * Return: 0, or -ENOMEM if the probes could not be registered.
 */
int func_duration_sched_get(void)
{
	int registered;

	lockdep_assert_held(&trace_types_lock);
	if (func_duration_sched_users++)
		return 0;

	registered = func_duration_register_probes();
	if (registered < 6) {
		func_duration_unregister_probes(registered);
		tracepoint_synchronize_unregister();
		func_duration_sched_users--;
		return -ENOMEM;
	}
	/* Every tracepoint hit from now on calls them */
	tracepoint_synchronize_unregister();

	if (!++func_duration_sched_last_gen)
		func_duration_sched_last_gen = 1;
	WRITE_ONCE(func_duration_sched_gen, func_duration_sched_last_gen);
	static_branch_enable(&func_duration_breakdown_key);

	return 0;
}

/**
 * func_duration_sched_put - stop sharing the probes of the breakdown
 *
 * Called with trace_types_lock held. The last user stops the generation
 * and unregisters the probes; calls in flight then have no breakdown.
 * The totals live in the tasks' shadow stacks, which fgraph keeps.
 */
void func_duration_sched_put(void)
{
	lockdep_assert_held(&trace_types_lock);
	if (WARN_ON_ONCE(!func_duration_sched_users) ||
	    --func_duration_sched_users)
		return;

	static_branch_disable(&func_duration_breakdown_key);
	WRITE_ONCE(func_duration_sched_gen, 0);
	func_duration_unregister_probes(6);
	tracepoint_synchronize_unregister();
}
