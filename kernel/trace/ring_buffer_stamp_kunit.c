// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit test of ring_buffer_lock_reserve_stamped(): an event gets its
 * writer's time stamp when the writer read it from the buffer's clock and
 * no later event was written since, and a reading of the buffer's clock
 * otherwise.
 */
#include <kunit/test.h>
#include <linux/ring_buffer.h>
#include <linux/trace_clock.h>

static u64 rb_stamp_test_now;

/* The buffer's clock: the time that each case sets */
static u64 rb_stamp_test_clock(void)
{
	return READ_ONCE(rb_stamp_test_now);
}

struct rb_stamp_case {
	const char	*what;
	u64		now;		/* the buffer's clock at the write */
	bool		stamped;	/* written by the stamped reserve */
	bool		other_clock;	/* the stamp read from another clock */
	u64		ts;		/* the writer's stamp */
	u64		want;		/* the event's time stamp */
};

static const struct rb_stamp_case rb_stamp_cases[] = {
	{ "plain reserve: the clock",		1000, false, false,    0, 1000 },
	{ "stamp after the last event",		5000, true,  false, 3000, 3000 },
	{ "stamp before the last event",	6000, true,  false, 2000, 6000 },
	{ "stamp equal to the last event's",	9000, true,  false, 6000, 6000 },
	{ "stamp from another clock",		9500, true,  true,  9200, 9500 },
	{ "stamp after a clock reading",	9800, true,  false, 9700, 9700 },
};

/* Called with preemption disabled: the events are all on one CPU */
static bool rb_stamp_write(struct trace_buffer *buffer,
			   const struct rb_stamp_case *c)
{
	u64 (*clock)(void) = c->other_clock ? trace_clock_local :
					       rb_stamp_test_clock;
	struct ring_buffer_event *event;

	WRITE_ONCE(rb_stamp_test_now, c->now);
	if (c->stamped)
		event = ring_buffer_lock_reserve_stamped(buffer, sizeof(u64),
							 clock, c->ts);
	else
		event = ring_buffer_lock_reserve(buffer, sizeof(u64));
	if (!event)
		return false;
	*(u64 *)ring_buffer_event_data(event) = c->now;
	ring_buffer_unlock_commit(buffer);
	return true;
}

static void rb_stamp_test(struct kunit *test)
{
	struct ring_buffer_event *event;
	struct trace_buffer *buffer;
	bool written = true;
	int i, cpu;
	u64 ts;

	buffer = ring_buffer_alloc(PAGE_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, buffer);
	ring_buffer_set_clock(buffer, rb_stamp_test_clock);

	cpu = get_cpu();
	for (i = 0; i < ARRAY_SIZE(rb_stamp_cases) && written; i++)
		written = rb_stamp_write(buffer, &rb_stamp_cases[i]);
	put_cpu();
	KUNIT_EXPECT_TRUE_MSG(test, written, "event %d not reserved", i - 1);

	for (i = 0; i < ARRAY_SIZE(rb_stamp_cases); i++) {
		const struct rb_stamp_case *c = &rb_stamp_cases[i];

		event = ring_buffer_consume(buffer, cpu, &ts, NULL);
		KUNIT_ASSERT_NOT_NULL_MSG(test, event, "%s: not read", c->what);
		KUNIT_EXPECT_EQ_MSG(test, *(u64 *)ring_buffer_event_data(event),
				    c->now, "%s: not the event written", c->what);
		KUNIT_EXPECT_EQ_MSG(test, ts, c->want, "%s", c->what);
	}
	KUNIT_EXPECT_NULL(test, ring_buffer_consume(buffer, cpu, &ts, NULL));
	ring_buffer_free(buffer);
}

static struct kunit_case rb_stamp_test_cases[] = {
	KUNIT_CASE(rb_stamp_test),
	{}
};

static struct kunit_suite rb_stamp_test_suite = {
	.name = "ring_buffer_stamp",
	.test_cases = rb_stamp_test_cases,
};

kunit_test_suite(rb_stamp_test_suite);

MODULE_DESCRIPTION("KUnit test of the ring buffer's writer-stamped reserve");
MODULE_LICENSE("GPL");
