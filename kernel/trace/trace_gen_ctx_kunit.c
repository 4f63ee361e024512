// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of the context word of trace events, tracing_gen_ctx(): its
 * interrupt-context flags in a task, with softirqs disabled, in a softirq
 * and in a hard interrupt, and its need-resched flag.
 */
#include <kunit/test.h>
#include <linux/bottom_half.h>
#include <linux/completion.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/timer.h>
#include <linux/trace_events.h>

#define GEN_CTX_IRQ_FLAGS	(TRACE_FLAG_NMI | TRACE_FLAG_HARDIRQ | \
				 TRACE_FLAG_SOFTIRQ | TRACE_FLAG_BH_OFF)

static unsigned int gen_ctx_flags(void)
{
	return tracing_gen_ctx() >> 16;
}

static void gen_ctx_task_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, gen_ctx_flags() & GEN_CTX_IRQ_FLAGS, 0);
}

static void gen_ctx_bh_off_test(struct kunit *test)
{
	unsigned int flags;

	local_bh_disable();
	flags = gen_ctx_flags();
	local_bh_enable();
	KUNIT_EXPECT_EQ(test, flags & GEN_CTX_IRQ_FLAGS, TRACE_FLAG_BH_OFF);
}

/* The flags seen by a callback in another context */
struct gen_ctx_probe {
	struct timer_list	timer;
	struct irq_work		work;
	struct completion	done;
	unsigned int		flags;
};

static void gen_ctx_timer_fn(struct timer_list *timer)
{
	struct gen_ctx_probe *probe = timer_container_of(probe, timer, timer);

	probe->flags = gen_ctx_flags();
	complete(&probe->done);
}

static void gen_ctx_softirq_test(struct kunit *test)
{
	struct gen_ctx_probe probe;

	init_completion(&probe.done);
	timer_setup_on_stack(&probe.timer, gen_ctx_timer_fn, 0);
	mod_timer(&probe.timer, jiffies + 1);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&probe.done, 10 * HZ), 0);
	timer_delete_sync(&probe.timer);
	timer_destroy_on_stack(&probe.timer);
	/* A timer callback runs in the timer softirq */
	KUNIT_EXPECT_EQ(test, probe.flags & GEN_CTX_IRQ_FLAGS, TRACE_FLAG_SOFTIRQ);
}

static void gen_ctx_irq_work_fn(struct irq_work *work)
{
	struct gen_ctx_probe *probe = container_of(work, struct gen_ctx_probe, work);

	probe->flags = gen_ctx_flags();
	complete(&probe->done);
}

static void gen_ctx_hardirq_test(struct kunit *test)
{
	struct gen_ctx_probe probe;

	init_completion(&probe.done);
	probe.work = IRQ_WORK_INIT_HARD(gen_ctx_irq_work_fn);
	irq_work_queue(&probe.work);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&probe.done, 10 * HZ), 0);
	irq_work_sync(&probe.work);
	/* The interrupt may have come in a softirq: test only its own bits */
	KUNIT_EXPECT_EQ(test, probe.flags & (TRACE_FLAG_NMI | TRACE_FLAG_HARDIRQ),
			TRACE_FLAG_HARDIRQ);
}

static void gen_ctx_need_resched_test(struct kunit *test)
{
	unsigned int flags;
	bool was_set;

	preempt_disable();
	was_set = test_tsk_need_resched(current);
	set_tsk_need_resched(current);
	flags = gen_ctx_flags();
	if (!was_set)
		clear_tsk_need_resched(current);
	preempt_enable();
	KUNIT_EXPECT_TRUE(test, flags & TRACE_FLAG_NEED_RESCHED);
}

static struct kunit_case gen_ctx_test_cases[] = {
	KUNIT_CASE(gen_ctx_task_test),
	KUNIT_CASE(gen_ctx_bh_off_test),
	KUNIT_CASE(gen_ctx_softirq_test),
	KUNIT_CASE(gen_ctx_hardirq_test),
	KUNIT_CASE(gen_ctx_need_resched_test),
	{}
};

static struct kunit_suite gen_ctx_test_suite = {
	.name = "trace_gen_ctx",
	.test_cases = gen_ctx_test_cases,
};

kunit_test_suite(gen_ctx_test_suite);

MODULE_DESCRIPTION("KUnit test of the context word of trace events");
MODULE_LICENSE("GPL");
