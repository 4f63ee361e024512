// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the function_duration tracer: the parsing of what is
 * written to its control files (chosen cases and random inputs), the
 * statistics math (histogram buckets, percentiles and standard
 * deviation), the lock-free counting under concurrent callers, the
 * memory the statistics take, the clock that gives self times, and the
 * breakdown of a call's duration into running, runnable, blocked and irq.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/prandom.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "trace.h"
#include "trace_functions_duration.h"

struct parse_case {
	const char	*input;
	int		ret;
	u64		val;
};

static const struct parse_case parse_cases[] = {
	{ "0",				0,	0 },
	{ "0\n",			0,	0 },
	{ "1",				0,	1 },
	{ "1000000\n",			0,	1000000 },
	{ "007",			0,	7 },
	{ "18446744073709551615",	0,	U64_MAX },
	{ "18446744073709551615\n",	0,	U64_MAX },
	{ "18446744073709551616",	-EINVAL },
	{ "99999999999999999999999",	-EINVAL },
	{ "",				-EINVAL },
	{ "\n",				-EINVAL },
	{ "-1",				-EINVAL },
	{ "+1",				-EINVAL },
	{ " 1",				-EINVAL },
	{ "1 ",				-EINVAL },
	{ "1\n\n",			-EINVAL },
	{ "12abc",			-EINVAL },
	{ "0x10",			-EINVAL },
	{ "1e3",			-EINVAL },
	{ "abc",			-EINVAL },
	{ "\x01\x02",			-EINVAL },
};

/* An input as a parameter description, with its unprintable bytes escaped */
static void input_desc(const char *input, char *desc)
{
	int i, n = 0;

	for (i = 0; input[i] && n < KUNIT_PARAM_DESC_SIZE - 5; i++)
		n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
			       isprint(input[i]) ? "%c" : "\\x%02x",
			       (unsigned char)input[i]);
	if (!n)
		strscpy(desc, "(empty)", KUNIT_PARAM_DESC_SIZE);
}

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	input_desc(c->input, desc);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void func_duration_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	u64 val = 42;
	int ret;

	ret = func_duration_parse_ns(c->input, &val);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	/* A rejected input leaves the old value in place. */
	KUNIT_EXPECT_EQ(test, val, c->ret ? 42 : c->val);
}

struct bool_case {
	const char	*input;
	int		ret;
	bool		val;
};

static const struct bool_case bool_cases[] = {
	{ "0",		0,	false },
	{ "1",		0,	true },
	{ "0\n",	0,	false },
	{ "1\n",	0,	true },
	{ "",		-EINVAL },
	{ "\n",		-EINVAL },
	{ "2",		-EINVAL },
	{ "01",		-EINVAL },
	{ "10",		-EINVAL },
	{ " 1",		-EINVAL },
	{ "1 ",		-EINVAL },
	{ "\n1",	-EINVAL },
	{ "1\n\n",	-EINVAL },
	{ "-1",		-EINVAL },
	{ "+1",		-EINVAL },
	{ "true",	-EINVAL },
	{ "y",		-EINVAL },
	{ "on",		-EINVAL },
	{ "\x01",	-EINVAL },
};

static void bool_case_desc(const struct bool_case *c, char *desc)
{
	input_desc(c->input, desc);
}

KUNIT_ARRAY_PARAM(bool, bool_cases, bool_case_desc);

static void func_duration_parse_bool_test(struct kunit *test)
{
	const struct bool_case *c = test->param_value;
	int old, ret;
	bool val;

	/* From both old values, so that any store shows */
	for (old = 0; old < 2; old++) {
		val = old;
		ret = func_duration_parse_bool(c->input, &val);
		KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "old value %d", old);
		/* A rejected input leaves the old value in place. */
		KUNIT_EXPECT_EQ_MSG(test, (int)val, c->ret ? old : (int)c->val,
				    "old value %d", old);
	}
}

struct max_case {
	const char	*input;
	int		ret;
	unsigned int	val;
};

static const struct max_case max_cases[] = {
	{ "1",			0,	1 },
	{ "1024\n",		0,	1024 },
	{ "65536",		0,	65536 },
	{ "0",			-EINVAL },
	{ "65537",		-EINVAL },
	{ "4294967297",		-EINVAL },
	{ "18446744073709551616", -EINVAL },
	{ "",			-EINVAL },
	{ "-1",			-EINVAL },
	{ " 8",			-EINVAL },
	{ "8 ",			-EINVAL },
	{ "0x10",		-EINVAL },
	{ "abc",		-EINVAL },
};

static void max_case_desc(const struct max_case *c, char *desc)
{
	input_desc(c->input, desc);
}

KUNIT_ARRAY_PARAM(max, max_cases, max_case_desc);

static void func_duration_parse_max_test(struct kunit *test)
{
	const struct max_case *c = test->param_value;
	unsigned int val = 77;
	int ret;

	ret = func_duration_parse_max(c->input, &val);
	KUNIT_EXPECT_EQ(test, ret, c->ret);
	/* A rejected input leaves the old value in place. */
	KUNIT_EXPECT_EQ(test, val, c->ret ? 77 : c->val);
}

/* ---------------------------------------------------------------------
 * Random inputs to the three parsers (which also parse the boot
 * parameters), against a model written here from their documentation:
 * decimal digits, one optional trailing newline, nothing else.
 */

#define FUZZ_INPUTS	100000
#define FUZZ_SEED	0xfd2026

/* The model: true, and the value, if @s is digits[\n] up to U64_MAX */
static bool model_number(const char *s, u64 *val)
{
	u64 v = 0;
	size_t i;

	for (i = 0; isdigit(s[i]); i++) {
		if (v > div_u64(U64_MAX - (s[i] - '0'), 10))
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (!i || (s[i] == '\n' && s[i + 1]) || (s[i] && s[i] != '\n'))
		return false;
	*val = v;
	return true;
}

/* A random input: bytes biased to digits and the other bytes that matter */
static void fuzz_input(struct rnd_state *rnd, char *buf, size_t size)
{
	static const char interesting[] = "0123456789\n \t+-xX.eE";
	unsigned int len, i, kind = prandom_u32_state(rnd) % 4;

	if (kind == 0) {
		/* A number near a limit, maybe with a suffix */
		static const u64 edges[] = { 0, 1, 65535, 65536, 65537,
					     U32_MAX, U64_MAX / 10, U64_MAX };
		u64 v = edges[prandom_u32_state(rnd) % ARRAY_SIZE(edges)];

		v += (s64)(prandom_u32_state(rnd) % 21) - 10;
		len = scnprintf(buf, size, "%llu", v);
		if (prandom_u32_state(rnd) & 1)
			len += scnprintf(buf + len, size - len, "%c",
					 interesting[prandom_u32_state(rnd) %
						     (sizeof(interesting) - 1)]);
		return;
	}

	len = prandom_u32_state(rnd) % (size - 1);
	for (i = 0; i < len; i++) {
		if (kind == 1)	/* any byte but NUL, which ends the input */
			buf[i] = 1 + prandom_u32_state(rnd) % 255;
		else if (kind == 2)
			buf[i] = interesting[prandom_u32_state(rnd) %
					     (sizeof(interesting) - 1)];
		else		/* digits, and one other byte somewhere */
			buf[i] = '0' + prandom_u32_state(rnd) % 10;
	}
	if (kind == 3 && len)
		buf[prandom_u32_state(rnd) % len] =
			interesting[prandom_u32_state(rnd) % (sizeof(interesting) - 1)];
	buf[len] = '\0';
}

/* A parser disagreed with the model: say on which input */
static void fuzz_fail(struct kunit *test, const char *parser, const char *input,
		      int ret, u64 val)
{
	char desc[KUNIT_PARAM_DESC_SIZE];

	input_desc(input, desc);
	KUNIT_FAIL(test, "%s('%s') returned %d, value %llu, against the model",
		   parser, desc, ret, val);
}

static void func_duration_parse_random_test(struct kunit *test)
{
	unsigned int n, accepted = 0, max_val;
	struct rnd_state rnd;
	bool ok, bool_val;
	char buf[32];
	u64 val, want;
	int ret;

	prandom_seed_state(&rnd, FUZZ_SEED);
	for (n = 0; n < FUZZ_INPUTS; n++) {
		fuzz_input(&rnd, buf, sizeof(buf));

		/* A rejected input leaves the old value in place. */
		ok = model_number(buf, &want);
		val = 42;
		ret = func_duration_parse_ns(buf, &val);
		if (ret != (ok ? 0 : -EINVAL) || val != (ok ? want : 42)) {
			fuzz_fail(test, "parse_ns", buf, ret, val);
			return;
		}
		accepted += ok;

		ok = ok && want >= 1 && want <= FUNC_DURATION_STATS_LIMIT;
		max_val = 77;
		ret = func_duration_parse_max(buf, &max_val);
		if (ret != (ok ? 0 : -EINVAL) || max_val != (ok ? want : 77)) {
			fuzz_fail(test, "parse_max", buf, ret, max_val);
			return;
		}

		ok = !strcmp(buf, "0") || !strcmp(buf, "0\n") ||
		     !strcmp(buf, "1") || !strcmp(buf, "1\n");
		bool_val = buf[0] != '1';
		ret = func_duration_parse_bool(buf, &bool_val);
		if (ret != (ok ? 0 : -EINVAL) ||
		    bool_val != (ok ? buf[0] == '1' : buf[0] != '1')) {
			fuzz_fail(test, "parse_bool", buf, ret, bool_val);
			return;
		}
	}
	kunit_info(test, "%u random inputs (seed %#x), %u numbers accepted\n",
		   FUZZ_INPUTS, FUZZ_SEED, accepted);
}

/* ---------------------------------------------------------------------
 * Buckets
 */

/* @ns is counted in a bucket whose bounds hold it */
static void check_bucket_bounds(struct kunit *test, u64 ns)
{
	unsigned int b = func_duration_bucket(ns);

	KUNIT_ASSERT_LT_MSG(test, b, FUNC_DURATION_NR_BUCKETS, "%llu ns", ns);
	KUNIT_ASSERT_LE_MSG(test, func_duration_bucket_lower(b), ns,
			    "%llu ns in bucket %u", ns, b);
	if (b == FUNC_DURATION_OVERFLOW_BUCKET)
		KUNIT_ASSERT_GE_MSG(test, ns, BIT_ULL(FUNC_DURATION_MAX_ORDER),
				    "%llu ns in the overflow bucket", ns);
	else
		KUNIT_ASSERT_LT_MSG(test, ns, func_duration_bucket_lower(b + 1),
				    "%llu ns in bucket %u", ns, b);
	if (ns < FUNC_DURATION_SUB_BUCKETS)
		KUNIT_ASSERT_EQ_MSG(test, b, (unsigned int)ns, "%llu ns", ns);
}

static void func_duration_bucket_edges_test(struct kunit *test)
{
	unsigned int k, b, prev = 0;
	u64 ns, next, lo, hi;

	for (k = 0; k < 64; k++) {
		check_bucket_bounds(test, BIT_ULL(k) - 1);
		check_bucket_bounds(test, BIT_ULL(k));
		check_bucket_bounds(test, BIT_ULL(k) + 1);
	}
	check_bucket_bounds(test, 0);
	check_bucket_bounds(test, U64_MAX);

	for (ns = 0; ns < FUNC_DURATION_SUB_BUCKETS; ns++)
		KUNIT_EXPECT_EQ(test, func_duration_bucket(ns), (unsigned int)ns);
	KUNIT_EXPECT_EQ(test, func_duration_bucket(BIT_ULL(FUNC_DURATION_MAX_ORDER) - 1),
			FUNC_DURATION_OVERFLOW_BUCKET - 1);
	KUNIT_EXPECT_EQ(test, func_duration_bucket(BIT_ULL(FUNC_DURATION_MAX_ORDER)),
			FUNC_DURATION_OVERFLOW_BUCKET);
	KUNIT_EXPECT_EQ(test, func_duration_bucket(U64_MAX), FUNC_DURATION_OVERFLOW_BUCKET);
	KUNIT_EXPECT_EQ(test, func_duration_bucket_lower(FUNC_DURATION_OVERFLOW_BUCKET),
			BIT_ULL(FUNC_DURATION_MAX_ORDER));

	/* The buckets tile [0, 2^MAX_ORDER): each one holds its bounds */
	for (b = 0; b < FUNC_DURATION_OVERFLOW_BUCKET; b++) {
		lo = func_duration_bucket_lower(b);
		hi = func_duration_bucket_lower(b + 1);
		KUNIT_ASSERT_LT_MSG(test, lo, hi, "bucket %u", b);
		KUNIT_ASSERT_EQ_MSG(test, func_duration_bucket(lo), b, "bucket %u", b);
		KUNIT_ASSERT_EQ_MSG(test, func_duration_bucket(hi - 1), b, "bucket %u", b);
	}

	/* A longer duration is never counted in a lower bucket */
	for (ns = 0; ; ns = next) {
		b = func_duration_bucket(ns);
		KUNIT_ASSERT_LT_MSG(test, b, FUNC_DURATION_NR_BUCKETS, "%llu ns", ns);
		KUNIT_ASSERT_GE_MSG(test, b, prev, "%llu ns", ns);
		prev = b;
		next = ns + (ns >> 6) + 1;
		if (next < ns)
			break;
	}
}

/* A reproducible pseudo-random sequence (xorshift64) */
static u64 next_random(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;

	return x;
}

/* The value of the bucket of @ns is in that bucket, within 12.5% of @ns */
static void check_bucket_error(struct kunit *test, u64 ns)
{
	unsigned int b = func_duration_bucket(ns);
	u64 val, err;

	KUNIT_ASSERT_LT_MSG(test, b, FUNC_DURATION_OVERFLOW_BUCKET, "%llu ns", ns);
	val = func_duration_bucket_value(b);
	KUNIT_ASSERT_LE_MSG(test, func_duration_bucket_lower(b), val,
			    "%llu ns: bucket %u stands for %llu", ns, b, val);
	KUNIT_ASSERT_LT_MSG(test, val, func_duration_bucket_lower(b + 1),
			    "%llu ns: bucket %u stands for %llu", ns, b, val);
	err = val > ns ? val - ns : ns - val;
	KUNIT_ASSERT_LE_MSG(test, err, ns / 8,
			    "%llu ns: bucket %u stands for %llu", ns, b, val);
	if (ns < FUNC_DURATION_SUB_BUCKETS)
		KUNIT_ASSERT_EQ_MSG(test, val, ns, "%llu ns", ns);
}

static void func_duration_bucket_error_test(struct kunit *test)
{
	u64 state = 0x9e3779b97f4a7c15ULL;
	unsigned int b, i;
	u64 ns;

	for (ns = 0; ns < 4096; ns++)
		check_bucket_error(test, ns);
	for (ns = 4096; ns < BIT_ULL(FUNC_DURATION_MAX_ORDER); ns += (ns >> 7) + 1)
		check_bucket_error(test, ns);

	/* The bounds of a bucket are the farthest from its value */
	for (b = 0; b < FUNC_DURATION_OVERFLOW_BUCKET; b++) {
		check_bucket_error(test, func_duration_bucket_lower(b));
		check_bucket_error(test, func_duration_bucket_lower(b + 1) - 1);
	}

	/* Durations of 1 to MAX_ORDER bits */
	for (i = 0; i < 10000; i++) {
		ns = next_random(&state);
		ns >>= 64 - FUNC_DURATION_MAX_ORDER +
		       (u32)next_random(&state) % FUNC_DURATION_MAX_ORDER;
		check_bucket_error(test, ns);
	}
}

/* ---------------------------------------------------------------------
 * Percentiles and standard deviation of histograms
 */

static const unsigned int test_pcts[] = { 0, 1, 50, 90, 99, 100 };

static u64 *alloc_buckets(struct kunit *test)
{
	u64 *buckets;

	buckets = kunit_kcalloc(test, FUNC_DURATION_NR_BUCKETS, sizeof(*buckets),
				GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buckets);

	return buckets;
}

static void clear_buckets(u64 *buckets)
{
	memset(buckets, 0, FUNC_DURATION_NR_BUCKETS * sizeof(*buckets));
}

static void add_calls(u64 *buckets, u64 ns, u64 calls)
{
	buckets[func_duration_bucket(ns)] += calls;
}

/* The @pct-th percentile is within 12.5% of @want, the buckets' precision */
static void expect_pct_near(struct kunit *test, const u64 *buckets, u64 min,
			    u64 max, unsigned int pct, u64 want)
{
	u64 got = func_duration_percentile(buckets, min, max, pct);
	u64 err = got > want ? got - want : want - got;

	KUNIT_EXPECT_LE_MSG(test, err, want / 8, "p%u is %llu, want %llu",
			    pct, got, want);
}

/* Every percentile is @want */
static void expect_pcts_eq(struct kunit *test, const u64 *buckets, u64 min,
			   u64 max, u64 want)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(test_pcts); i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    func_duration_percentile(buckets, min, max, test_pcts[i]),
				    want, "p%u", test_pcts[i]);
}

/* Percentiles never decrease with the rank and stay within [@min, @max] */
static void check_pcts_order(struct kunit *test, const u64 *buckets, u64 min,
			     u64 max)
{
	unsigned int pct;
	u64 p, prev = min;

	for (pct = 0; pct <= 100; pct++) {
		p = func_duration_percentile(buckets, min, max, pct);
		KUNIT_ASSERT_GE_MSG(test, p, min, "p%u", pct);
		KUNIT_ASSERT_LE_MSG(test, p, max, "p%u", pct);
		KUNIT_ASSERT_GE_MSG(test, p, prev, "p%u", pct);
		prev = p;
	}
}

static void func_duration_percentile_single_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);

	/* The bucket stands for 959 ns: min and max correct it */
	add_calls(buckets, 1000, 5);
	expect_pcts_eq(test, buckets, 1000, 1000, 1000);
	check_pcts_order(test, buckets, 1000, 1000);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, 1000, 1000, 1000), 0);
}

/* Nearest rank: the smallest value at least pct% of the calls do not exceed */
static void func_duration_percentile_rank_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);
	u64 lo, hi;

	add_calls(buckets, 0, 50);
	add_calls(buckets, 1, 40);
	add_calls(buckets, 2, 9);
	add_calls(buckets, 3, 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 0), 0);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 50), 0);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 51), 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 90), 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 91), 2);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 99), 2);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 3, 100), 3);

	/* Ranks that are not whole are rounded up */
	clear_buckets(buckets);
	add_calls(buckets, 0, 1);
	add_calls(buckets, 1, 1);
	add_calls(buckets, 2, 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 33), 0);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 34), 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 50), 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 66), 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 67), 2);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, 2, 100), 2);

	/* Bounds that clamp nothing show the values of the buckets */
	clear_buckets(buckets);
	add_calls(buckets, 100, 1);
	add_calls(buckets, 10000, 1);
	lo = func_duration_bucket_value(func_duration_bucket(100));
	hi = func_duration_bucket_value(func_duration_bucket(10000));
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, U64_MAX, 0), lo);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, U64_MAX, 50), lo);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, U64_MAX, 51), hi);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 0, U64_MAX, 100), hi);
}

/* One call of each duration from 1 to 10000 ns */
static void func_duration_percentile_uniform_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);
	u64 ns;

	for (ns = 1; ns <= 10000; ns++)
		add_calls(buckets, ns, 1);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 1, 10000, 0), 1);
	expect_pct_near(test, buckets, 1, 10000, 1, 100);
	expect_pct_near(test, buckets, 1, 10000, 50, 5000);
	expect_pct_near(test, buckets, 1, 10000, 90, 9000);
	expect_pct_near(test, buckets, 1, 10000, 99, 9900);
	expect_pct_near(test, buckets, 1, 10000, 100, 10000);
	check_pcts_order(test, buckets, 1, 10000);
}

/*
 * 2^20 calls of 100 ns, 2^19 of 200 ns, ... 1 of 100 << 20 ns: half of
 * the calls are 100 ns, 90% at most 800 ns and 99% at most 6400 ns.
 */
static void func_duration_percentile_exponential_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);
	const u64 min = 100, max = 100ULL << 20;
	u64 p50, p90, p99;
	unsigned int j;

	for (j = 0; j <= 20; j++)
		add_calls(buckets, 100ULL << j, 1ULL << (20 - j));
	p50 = func_duration_percentile(buckets, min, max, 50);
	p90 = func_duration_percentile(buckets, min, max, 90);
	p99 = func_duration_percentile(buckets, min, max, 99);
	KUNIT_EXPECT_GE(test, p50, min);
	KUNIT_EXPECT_LT(test, p50, 2 * min);
	KUNIT_EXPECT_GT(test, p90, p50);
	KUNIT_EXPECT_GT(test, p99, p90);
	expect_pct_near(test, buckets, min, max, 50, 100);
	expect_pct_near(test, buckets, min, max, 90, 800);
	expect_pct_near(test, buckets, min, max, 99, 6400);
	check_pcts_order(test, buckets, min, max);
}

/* All calls at, or next to, a power of two: min and max give it exactly */
static void func_duration_percentile_edges_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);
	unsigned int k, d;
	u64 ns;

	for (k = 0; k < 64; k++) {
		for (d = 0; d < 3; d++) {
			ns = BIT_ULL(k) + d - 1;
			clear_buckets(buckets);
			add_calls(buckets, ns, 3);
			expect_pcts_eq(test, buckets, ns, ns, ns);
			KUNIT_EXPECT_EQ_MSG(test, func_duration_stddev(buckets, ns, ns, ns), 0,
					    "%llu ns", ns);
		}
	}
}

static void func_duration_percentile_extremes_test(struct kunit *test)
{
	/* The largest count whose rank count * pct + 99 fits in a u64 */
	const u64 exact = (U64_MAX - 99) / 100;
	u64 *buckets = alloc_buckets(test);
	unsigned int i;
	u64 count;

	/* Nothing counted */
	expect_pcts_eq(test, buckets, 0, 0, 0);
	expect_pcts_eq(test, buckets, 10, 20, 0);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, 10, 20, 15), 0);

	add_calls(buckets, 0, 7);
	expect_pcts_eq(test, buckets, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, 0, 0, 0), 0);

	/* The overflow bucket stands for the longest call */
	clear_buckets(buckets);
	add_calls(buckets, U64_MAX, 1);
	expect_pcts_eq(test, buckets, U64_MAX, U64_MAX, U64_MAX);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, U64_MAX, U64_MAX, U64_MAX), 0);
	add_calls(buckets, BIT_ULL(FUNC_DURATION_MAX_ORDER), 1);
	expect_pcts_eq(test, buckets, BIT_ULL(FUNC_DURATION_MAX_ORDER), U64_MAX, U64_MAX);

	clear_buckets(buckets);
	add_calls(buckets, 100, 99);
	add_calls(buckets, BIT_ULL(40), 1);
	expect_pct_near(test, buckets, 100, BIT_ULL(40), 50, 100);
	expect_pct_near(test, buckets, 100, BIT_ULL(40), 99, 100);
	KUNIT_EXPECT_EQ(test, func_duration_percentile(buckets, 100, BIT_ULL(40), 100),
			BIT_ULL(40));
	check_pcts_order(test, buckets, 100, BIT_ULL(40));

	/* As many calls as a u64 counts, in one bucket */
	clear_buckets(buckets);
	add_calls(buckets, 5, U64_MAX);
	expect_pcts_eq(test, buckets, 5, 5, 5);

	/* Counts that nearly overflow their sum, in two buckets */
	clear_buckets(buckets);
	add_calls(buckets, 100, U64_MAX / 2);
	add_calls(buckets, 10000, U64_MAX / 2);
	expect_pct_near(test, buckets, 100, 10000, 1, 100);
	expect_pct_near(test, buckets, 100, 10000, 50, 100);
	expect_pct_near(test, buckets, 100, 10000, 51, 10000);
	expect_pct_near(test, buckets, 100, 10000, 99, 10000);
	expect_pct_near(test, buckets, 100, 10000, 100, 10000);
	check_pcts_order(test, buckets, 100, 10000);

	/* Either side of the largest count ranked exactly */
	for (i = 0; i < 2; i++) {
		count = exact + i;
		clear_buckets(buckets);
		add_calls(buckets, 100, count / 2);
		add_calls(buckets, 10000, count - count / 2);
		expect_pct_near(test, buckets, 100, 10000, 0, 100);
		expect_pct_near(test, buckets, 100, 10000, 1, 100);
		expect_pct_near(test, buckets, 100, 10000, 99, 10000);
		expect_pct_near(test, buckets, 100, 10000, 100, 10000);
		check_pcts_order(test, buckets, 100, 10000);
	}
}

struct stddev_case {
	u64	a;	/* @calls calls of @a ns and as many of @b ns */
	u64	b;
	u64	calls;
	u64	stddev;
};

/* Durations that are the values of their buckets: their stddev is exact */
static const struct stddev_case stddev_cases[] = {
	{ 5,	5,	1000,		0 },
	{ 0,	2,	1,		1 },
	{ 0,	2,	1000,		1 },
	{ 1,	7,	1,		3 },
	{ 1,	7,	1000000,	3 },
	{ 959,	2815,	1,		928 },
	{ 959,	2815,	1000000,	928 },
};

static void stddev_case_desc(const struct stddev_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%llu and %llu ns, %llu calls each",
		 c->a, c->b, c->calls);
}

KUNIT_ARRAY_PARAM(stddev, stddev_cases, stddev_case_desc);

static void func_duration_stddev_test(struct kunit *test)
{
	const struct stddev_case *c = test->param_value;
	u64 *buckets = alloc_buckets(test);

	KUNIT_ASSERT_EQ(test, func_duration_bucket_value(func_duration_bucket(c->a)), c->a);
	KUNIT_ASSERT_EQ(test, func_duration_bucket_value(func_duration_bucket(c->b)), c->b);
	add_calls(buckets, c->a, c->calls);
	add_calls(buckets, c->b, c->calls);
	KUNIT_EXPECT_EQ(test, func_duration_stddev(buckets, c->a, c->b, (c->a + c->b) / 2),
			c->stddev);
}

/* 2^40 calls each of 0 and 2^k ns: the variance, 2^(2k - 2), does not fit */
static void func_duration_stddev_saturate_test(struct kunit *test)
{
	u64 *buckets = alloc_buckets(test);
	unsigned int k;
	u64 sd;

	for (k = 33; k <= 34; k++) {
		clear_buckets(buckets);
		add_calls(buckets, 0, BIT_ULL(40));
		add_calls(buckets, BIT_ULL(k), BIT_ULL(40));
		sd = func_duration_stddev(buckets, 0, BIT_ULL(k), BIT_ULL(k - 1));
		KUNIT_EXPECT_GE_MSG(test, sd, (u64)U32_MAX, "2^%u ns", k);
		KUNIT_EXPECT_LE_MSG(test, sd, BIT_ULL(k - 1), "2^%u ns", k);
	}
}

/*
 * 100 calls of 1000 ns and one of a minute, as when a function sleeps
 * once: the variance does not fit in a u64, and neither does a single
 * squared deviation divided by the number of calls.
 */
static void func_duration_stddev_wide_test(struct kunit *test)
{
	const u64 max = 60000000000ULL, mean = 594060396;
	u64 *buckets = alloc_buckets(test);
	u64 sd;

	add_calls(buckets, 1000, 100);
	add_calls(buckets, max, 1);
	sd = func_duration_stddev(buckets, 1000, max, mean);
	KUNIT_EXPECT_GE(test, sd, (u64)U32_MAX);
}

/*
 * More threads than CPUs count calls of the same functions at once, as
 * the return callback does, into a table with exactly one row for each
 * function, while the test reads it: no call may be lost, each function
 * must have a single row however many threads claim it first, no row may
 * be left unused, and min <= p50 <= max must hold at every read.
 *
 * Under QEMU's TCG, where a vCPU runs for many milliseconds at a time,
 * two claims of one function never overlap by chance: before the others
 * start, the holder thread has its claims of the first CONC_TRIALS
 * functions held open (func_duration_stats_claiming()) until the racer
 * thread, on another CPU, has counted a call of the same function, or
 * for CONC_HOLD_NS.
 */
#define CONC_FUNCS	8
#define CONC_CALLS	(CONC_FUNCS * 2500)
#define CONC_TRIALS	2U
#define CONC_HOLD_NS	NSEC_PER_SEC

enum conc_role {
	CONC_COUNTER,
	CONC_HOLDER,
	CONC_RACER,
};

struct conc_race {
	struct func_duration_stats	*stats;
	unsigned long			held;	/* whose claim is held */
	unsigned long			counted; /* the racer's last call */
	unsigned int			holds;
	unsigned int			raced;	/* calls that returned meanwhile */
	struct completion		start;	/* every thread is there */
	struct completion		ready;	/* the trials are over */
};

struct conc_thread {
	struct kunit			*test;
	struct conc_race		*race;
	enum conc_role			role;
	struct completion		*go;
	unsigned int			seed;
	u64				calls[CONC_FUNCS];
	u64				total[CONC_FUNCS];
	u64				min[CONC_FUNCS];
	u64				max[CONC_FUNCS];
	struct completion		done;
};

/* Made-up function addresses */
static unsigned long conc_func(unsigned int f)
{
	return 0x1000UL * (f + 1);
}

/* 1..4096 ns, spread over the thread's calls */
static u64 conc_duration(unsigned int seed, unsigned int i)
{
	return ((seed + i) * 2654435761U) % 4096 + 1;
}

static void conc_count(struct conc_thread *t, unsigned int f, u64 d)
{
	preempt_disable();
	func_duration_stats_add(t->race->stats, conc_func(f), d, d, NULL);
	preempt_enable();
	t->calls[f]++;
	t->total[f] += d;
	t->min[f] = min(t->min[f], d);
	t->max[f] = max(t->max[f], d);
}

/* The static stub of func_duration_stats_claiming(), in the holder only */
static void conc_hold_claim(struct func_duration_stats *stats,
			    unsigned long func)
{
	struct conc_race *race = kunit_get_current_test()->priv;
	u64 end = ktime_get_mono_fast_ns() + CONC_HOLD_NS;

	if (stats != race->stats || race->holds >= CONC_TRIALS ||
	    func != conc_func(race->holds))
		return;

	WRITE_ONCE(race->held, func);
	while (READ_ONCE(race->counted) != func &&
	       ktime_get_mono_fast_ns() < end)
		cpu_relax();
	if (READ_ONCE(race->counted) == func)
		race->raced++;
	race->holds++;
}

/* The racer: one call of each held function, from another CPU */
static void conc_race_claims(struct conc_thread *t)
{
	struct conc_race *race = t->race;
	unsigned int f;
	u64 end;

	for (f = 0; f < CONC_TRIALS; f++) {
		end = ktime_get_mono_fast_ns() + 2 * CONC_HOLD_NS;
		while (READ_ONCE(race->held) != conc_func(f)) {
			if (ktime_get_mono_fast_ns() > end)
				return;
			cond_resched();
			cpu_relax();
		}
		conc_count(t, f, conc_duration(t->seed, f));
		WRITE_ONCE(race->counted, conc_func(f));
	}
}

static int conc_counter(void *data)
{
	struct conc_thread *t = data;
	unsigned int i;

	if (t->role != CONC_COUNTER)
		wait_for_completion(&t->race->start);
	if (t->role == CONC_HOLDER) {
		/* Only this thread's claims are redirected to conc_hold_claim(). */
		current->kunit_test = t->test;
		for (i = 0; i < CONC_TRIALS; i++)
			conc_count(t, i, conc_duration(t->seed, i));
		current->kunit_test = NULL;
		complete(&t->race->ready);
	} else if (t->role == CONC_RACER) {
		conc_race_claims(t);
	}

	wait_for_completion(t->go);
	for (i = 0; i < CONC_CALLS; i++) {
		conc_count(t, i % CONC_FUNCS, conc_duration(t->seed, i));
		if (!(i % 1024))
			cond_resched();
	}
	complete(&t->done);
	return 0;
}

static void func_duration_concurrent_test(struct kunit *test)
{
	unsigned int cpus = num_online_cpus(), nr = 2 * cpus + 1, started, i, f;
	u64 calls, total, min, max, last = 0, p50, buckets;
	u64 over_cap = 0, nmi = 0, no_stack = 0, unordered = 0;
	struct func_duration_stats *stats;
	unsigned int reads = 0, unused = 0;
	struct func_duration_row *row;
	struct task_struct *task;
	struct conc_race *race;
	struct completion *go;
	struct conc_thread *t;
	bool running = true;
	int cpu;

	row = kunit_kzalloc(test, sizeof(*row), GFP_KERNEL);
	t = kunit_kcalloc(test, nr, sizeof(*t), GFP_KERNEL);
	go = kunit_kzalloc(test, sizeof(*go), GFP_KERNEL);
	race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, row);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, go);
	KUNIT_ASSERT_NOT_NULL(test, race);
	/* Room for every function, and not one row more */
	stats = func_duration_stats_create(CONC_FUNCS, CONC_FUNCS);
	KUNIT_ASSERT_NOT_NULL(test, stats);
	init_completion(go);
	init_completion(&race->start);
	init_completion(&race->ready);
	race->stats = stats;
	test->priv = race;
	kunit_activate_static_stub(test, func_duration_stats_claiming,
				   conc_hold_claim);

	/* Thread 0, the holder, and 1, the racer, are on different CPUs. */
	for (started = 0; started < nr; started++) {
		t[started].test = test;
		t[started].race = race;
		t[started].role = started == 0 ? CONC_HOLDER :
				  started == 1 ? CONC_RACER : CONC_COUNTER;
		t[started].go = go;
		t[started].seed = started * 7919;
		for (f = 0; f < CONC_FUNCS; f++)
			t[started].min[f] = U64_MAX;
		init_completion(&t[started].done);
		task = kthread_create_on_cpu(conc_counter, &t[started],
					     cpumask_nth(started % cpus,
							 cpu_online_mask),
					     "fdur_conc/%u");
		if (IS_ERR(task))
			break;
		wake_up_process(task);
	}
	complete_all(&race->start);
	if (started)
		wait_for_completion(&race->ready);
	complete_all(go);
	KUNIT_EXPECT_EQ(test, started, nr);

	while (running) {
		running = false;
		for (i = 0; i < started; i++)
			running |= !completion_done(&t[i].done);
		if (!func_duration_stats_sum(stats, conc_func(0), row))
			continue;
		reads++;
		KUNIT_EXPECT_GE(test, row->calls, last);
		last = row->calls;
		p50 = func_duration_percentile(row->buckets, row->min,
					       row->max, 50);
		KUNIT_EXPECT_LE(test, row->min, p50);
		KUNIT_EXPECT_LE(test, p50, row->max);
		usleep_range(100, 200);
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&t[i].done);

	KUNIT_EXPECT_EQ(test, race->holds, CONC_TRIALS);
	/* A call must wait for the row of a claim pending on another CPU. */
	KUNIT_EXPECT_EQ_MSG(test, race->raced, 0U,
			    "calls returned while their function's claim was held");

	for (f = 0; f < CONC_FUNCS; f++) {
		calls = 0;
		total = 0;
		min = U64_MAX;
		max = 0;
		for (i = 0; i < started; i++) {
			calls += t[i].calls[f];
			total += t[i].total[f];
			min = min(min, t[i].min[f]);
			max = max(max, t[i].max[f]);
		}
		/* The trials' calls come on top of the threads' own. */
		KUNIT_EXPECT_EQ_MSG(test, calls,
				    (u64)started * CONC_CALLS / CONC_FUNCS +
				    (f < CONC_TRIALS ? 2 : 0),
				    "the threads' calls of function %u", f);

		memset(row, 0, sizeof(*row));
		KUNIT_EXPECT_EQ_MSG(test, func_duration_stats_sum(stats, conc_func(f), row),
				    1U, "rows of function %u", f);
		KUNIT_EXPECT_EQ_MSG(test, row->calls, calls, "function %u", f);
		KUNIT_EXPECT_EQ_MSG(test, row->total, total, "function %u", f);
		KUNIT_EXPECT_EQ_MSG(test, row->self, total, "function %u", f);
		KUNIT_EXPECT_EQ_MSG(test, row->min, min, "function %u", f);
		KUNIT_EXPECT_EQ_MSG(test, row->max, max, "function %u", f);
		for (i = 0, buckets = 0; i < FUNC_DURATION_NR_BUCKETS; i++)
			buckets += row->buckets[i];
		KUNIT_EXPECT_EQ_MSG(test, buckets, row->calls, "function %u", f);
	}

	KUNIT_EXPECT_EQ(test, atomic_read(&stats->nr_funcs), CONC_FUNCS);
	for (i = 0; i < min_t(unsigned int, atomic_read(&stats->nr_funcs),
			      stats->max); i++)
		unused += !READ_ONCE(stats->funcs[i]);
	KUNIT_EXPECT_EQ_MSG(test, unused, 0U, "rows claimed and left unused");
	for_each_possible_cpu(cpu) {
		struct func_duration_drops *d = per_cpu_ptr(stats->drops, cpu);

		over_cap += local_read(&d->over_cap);
		nmi += READ_ONCE(d->nmi);
		no_stack += local_read(&d->no_stack);
		unordered += local_read(&d->unordered);
	}
	KUNIT_EXPECT_EQ(test, over_cap, 0ULL);
	KUNIT_EXPECT_EQ(test, nmi, 0ULL);
	KUNIT_EXPECT_EQ(test, no_stack, 0ULL);
	KUNIT_EXPECT_EQ(test, unordered, 0ULL);

	kunit_info(test, "%u threads on %u CPUs, %llu calls of %u functions, %u claims held, %u reads while counting\n",
		   started, cpus, (u64)started * CONC_CALLS + 2 * CONC_TRIALS,
		   CONC_FUNCS, race->holds, reads);

	kunit_deactivate_static_stub(test, func_duration_stats_claiming);
	func_duration_stats_destroy(stats);
}

/*
 * The memory follows the functions counted and the online CPUs: with the
 * default limit, one function takes the tables of the instance and one
 * chunk of rows per online CPU, nothing per possible CPU but pointers.
 * The counting does not allocate the rows of functions claimed past the
 * chunks allocated: their calls are dropped, and counted as such, until
 * the work that allocates them has run; after it, they are counted.
 */
#define MEM_FUNCS	((unsigned int)FUNC_DURATION_CHUNK_ROWS + 36)
#define MEM_FUNC(i)	(0x100000UL + (i) * 64)
/* The tables of the instance: 56 bytes per function with 64-bit longs */
#define MEM_TABLES	SZ_64K
/* One chunk of 64 rows: 576 bytes each with 32-bit buckets, 1104 before */
#define MEM_PER_CPU	(48 * SZ_1K)
#define MEM_PER_POSSIBLE_CPU	512

static size_t mem_bound(unsigned int chunks)
{
	return MEM_TABLES + num_online_cpus() * chunks * MEM_PER_CPU +
	       num_possible_cpus() * MEM_PER_POSSIBLE_CPU;
}

static void mem_count(struct func_duration_stats *stats, unsigned int i)
{
	preempt_disable();
	func_duration_stats_add(stats, MEM_FUNC(i), 100 + i, 100 + i, NULL);
	preempt_enable();
}

static u64 mem_calls(struct kunit *test, struct func_duration_stats *stats,
		     unsigned int i, struct func_duration_row *row)
{
	KUNIT_EXPECT_EQ_MSG(test, func_duration_stats_sum(stats, MEM_FUNC(i), row),
			    1U, "function %u", i);
	KUNIT_EXPECT_EQ_MSG(test, row->total, row->calls * (100 + i),
			    "function %u", i);
	return row->calls;
}

static void func_duration_memory_test(struct kunit *test)
{
	unsigned int cpus = num_online_cpus(), i;
	struct func_duration_stats *stats;
	struct func_duration_row *row;
	u64 no_mem = 0, calls = 0, before;
	size_t bytes;
	int cpu;

	row = kunit_kzalloc(test, sizeof(*row), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, row);
	stats = func_duration_stats_create(FUNC_DURATION_STATS_DEFAULT_MAX, 1);
	KUNIT_ASSERT_NOT_NULL(test, stats);

	mem_count(stats, 0);
	bytes = atomic_long_read(&stats->bytes);
	kunit_info(test, "one function of at most %u: %zu bytes on %u online of %u possible CPUs\n",
		   FUNC_DURATION_STATS_DEFAULT_MAX, bytes, cpus,
		   num_possible_cpus());
	KUNIT_EXPECT_LE(test, bytes, mem_bound(1));
	if (cpus <= 2)
		KUNIT_EXPECT_LE(test, bytes, SZ_256K);

	/*
	 * Past the first chunk: the first call of function 64 is dropped,
	 * later ones may be too, until the work has run. Each call is either
	 * counted or dropped without memory.
	 */
	for (i = 0; i < MEM_FUNCS; i++)
		mem_count(stats, i);
	func_duration_stats_flush(stats);
	for_each_possible_cpu(cpu)
		no_mem += local_read(&per_cpu_ptr(stats->drops, cpu)->no_mem);
	for (i = 0; i < MEM_FUNCS; i++)
		calls += mem_calls(test, stats, i, row);
	kunit_info(test, "%u functions counted once: %llu calls dropped without memory\n",
		   MEM_FUNCS, no_mem);
	KUNIT_EXPECT_GE(test, no_mem, 1);
	KUNIT_EXPECT_LE(test, no_mem, MEM_FUNCS - FUNC_DURATION_CHUNK_ROWS);
	KUNIT_EXPECT_EQ(test, calls + no_mem, MEM_FUNCS + 1);

	/* Once the work has run, every call is counted. */
	for (i = 0; i < MEM_FUNCS; i++) {
		before = mem_calls(test, stats, i, row);
		mem_count(stats, i);
		KUNIT_EXPECT_EQ_MSG(test, mem_calls(test, stats, i, row),
				    before + 1, "function %u", i);
	}
	bytes = atomic_long_read(&stats->bytes);
	kunit_info(test, "%u functions: %zu bytes\n", MEM_FUNCS, bytes);
	KUNIT_EXPECT_LE(test, bytes,
			mem_bound(DIV_ROUND_UP(MEM_FUNCS, FUNC_DURATION_CHUNK_ROWS) + 1));

	func_duration_stats_destroy(stats);
}

/*
 * The self-time clock against a model: random call trees, some calls not
 * counted (no mark, no clock update), some with negative durations
 * (returned as 0), starting just below the clock's wrap, with the
 * TRACE_GRAPH_* flags set around it. Each counted call's children time
 * must be the sum of the durations of its closest counted callees.
 */
#define CLOCK_DEPTH	32
#define CLOCK_STEPS	100000

struct clock_frame {
	bool	counted;
	u64	mark;
	u64	children;	/* the model's */
	u64	duration;	/* spent in this frame alone, so far */
};

static void func_duration_clock_test(struct kunit *test)
{
	const unsigned long flags = TRACE_GRAPH_FL | TRACE_GRAPH_NOTRACE |
		(3 << TRACE_GRAPH_DEPTH_START_BIT);
	unsigned long task_var = flags;
	unsigned int depth = 0, returns = 0, step;
	struct clock_frame *stack;
	struct rnd_state rnd;

	if (!IS_ENABLED(CONFIG_64BIT))
		kunit_skip(test, "the clock needs 64-bit longs");

	stack = kunit_kcalloc(test, CLOCK_DEPTH, sizeof(*stack), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, stack);

	/* Start 1 ms before the clock wraps around. */
	func_duration_clock_return(&task_var, FUNC_DURATION_CLOCK_MASK - 1000000, 0);
	KUNIT_ASSERT_EQ(test, task_var & FUNC_DURATION_FLAGS_MASK, flags);

	prandom_seed_state(&rnd, FUZZ_SEED);
	for (step = 0; step < CLOCK_STEPS; step++) {
		bool enter = depth == 0 ||
			(depth < CLOCK_DEPTH && prandom_u32_state(&rnd) % 2);
		struct clock_frame *f;
		u64 children, duration;

		if (enter) {
			f = &stack[depth++];
			f->counted = prandom_u32_state(&rnd) % 4 != 0;
			f->mark = func_duration_clock_mark(task_var);
			f->children = 0;
			f->duration = prandom_u32_state(&rnd) % 5000;
			continue;
		}

		f = &stack[--depth];
		if (!f->counted) {
			/* Its counted callees' time goes to its counted caller. */
			if (depth)
				stack[depth - 1].children += f->children;
			continue;
		}

		/* One call in 16 migrated and "returned before it was called" */
		duration = f->children + f->duration;
		if (prandom_u32_state(&rnd) % 16 == 0)
			duration = 0;
		children = func_duration_clock_return(&task_var, f->mark, duration);
		KUNIT_EXPECT_EQ_MSG(test, children, f->children,
				    "step %u, depth %u", step, depth);
		KUNIT_EXPECT_EQ(test, task_var & FUNC_DURATION_FLAGS_MASK, flags);
		if (depth)
			stack[depth - 1].children += duration;
		returns++;
	}
	kunit_info(test, "%u counted returns checked across the clock's wrap\n",
		   returns);
}

/* ---------------------------------------------------------------------
 * The breakdown of a call's duration. First a few cases worked out by
 * hand, then a model: one task on a timeline of integer time, driven at
 * random through calls, switches, wakeups, interrupts, migrations (of the
 * task switched in elsewhere, and of the task waiting on a runqueue) and
 * restarts of the probes. The model does none of the tracer's
 * arithmetic: each step, it adds the step's length to the part of every
 * open call that matches what the task does then. A call has a breakdown
 * if the probes were live, in one generation, from its entry to its
 * return.
 */

/* Expect a call returning after @duration to break down into these parts */
static void bd_case(struct kunit *test, const char *name,
		    struct func_duration_task *t, u32 gen,
		    const struct func_duration_bd_snap *snap, u64 duration,
		    u64 running, u64 runnable, u64 blocked, u64 irq)
{
	struct func_duration_parts p = {};
	bool has = func_duration_bd_return(t, gen, snap, duration, &p);

	KUNIT_EXPECT_TRUE_MSG(test, has, "%s: no breakdown", name);
	KUNIT_EXPECT_EQ_MSG(test, p.running, running, "%s: running", name);
	KUNIT_EXPECT_EQ_MSG(test, p.runnable, runnable, "%s: runnable", name);
	KUNIT_EXPECT_EQ_MSG(test, p.blocked, blocked, "%s: blocked", name);
	KUNIT_EXPECT_EQ_MSG(test, p.irq, irq, "%s: irq", name);
}

/*
 * The scheduler's part, passed to the switches: the task's run_delay,
 * which a migration of a waiting task advances, and when it was queued
 * on the runqueue it is switched in from (0: not queued).
 */
static void bd_hand_cases(struct kunit *test)
{
	struct func_duration_bd_snap snap, older;
	struct func_duration_cpu_irq c = {};
	struct func_duration_task t = {};
	struct func_duration_parts p;

	/* Entered at 0, asleep from 10, woken (queued) at 110, on at 115 */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 10, 500);
	func_duration_task_switch_in(&t, 1, 115, 500, 110);
	bd_case(test, "sleep", &t, 1, &snap, 150, 45, 5, 100, 0);

	/*
	 * Woken at 20 and queued on another runqueue, which it left at 60
	 * (5 more in run_delay), queued at 60 here, on at 62: waited 7.
	 */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 15, 500);
	func_duration_task_switch_in(&t, 1, 62, 505, 60);
	bd_case(test, "migrated", &t, 1, &snap, 50, 3, 7, 40, 0);

	/*
	 * Preempted from 20 to 70, queued at 18 (the runqueue's clock, read
	 * before the switch): runnable all the time away.
	 */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 20, 505);
	func_duration_task_switch_in(&t, 1, 70, 505, 18);
	bd_case(test, "preempted", &t, 1, &snap, 100, 50, 50, 0, 0);

	/* Switched in asleep, never queued: blocked all along */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 210, 505);
	func_duration_task_switch_in(&t, 1, 260, 505, 0);
	bd_case(test, "unwoken", &t, 1, &snap, 70, 20, 0, 50, 0);

	/* A hard interrupt in a soft one, 10 to 30: only the outer counts */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_irq_enter(&c, 1, 10);
	func_duration_irq_enter(&c, 1, 12);
	KUNIT_EXPECT_EQ(test, func_duration_irq_exit(&c, 1, 15), 0);
	KUNIT_EXPECT_EQ(test, func_duration_irq_exit(&c, 1, 30), 20);
	func_duration_task_add_irq(&t, 1, 20);
	bd_case(test, "interrupt", &t, 1, &snap, 50, 30, 0, 0, 20);
	/* An end without its beginning, or begun in another generation */
	KUNIT_EXPECT_EQ(test, func_duration_irq_exit(&c, 1, 60), 0);
	func_duration_irq_enter(&c, 1, 70);
	KUNIT_EXPECT_EQ(test, func_duration_irq_exit(&c, 2, 80), 0);

	/*
	 * Switched in on a CPU whose clock is 50 ahead: asleep 40 from 110
	 * looks like 90 (queued at 200 there), more than the call's 70; the
	 * wait of 10 is exact, blocked takes what is left.
	 */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 110, 505);
	func_duration_task_switch_in(&t, 1, 210, 505, 200);
	bd_case(test, "off clamped", &t, 1, &snap, 70, 0, 10, 60, 0);

	/* Preempted 90 from 300 in a call its clocks say lasted 70 */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 300, 505);
	func_duration_task_switch_in(&t, 1, 390, 505, 300);
	bd_case(test, "runnable clamped", &t, 1, &snap, 70, 0, 70, 0, 0);

	/* The wait the scheduler says is longer than the time away */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_switch_out(&t, 1, 400, 505);
	func_duration_task_switch_in(&t, 1, 410, 520, 405);
	bd_case(test, "wait clamped", &t, 1, &snap, 30, 20, 10, 0, 0);

	/* 50 ahead again: blocked takes 100 of 110, leaving 10 of 20 in irq */
	func_duration_bd_enter(&t, 1, &snap);
	func_duration_task_add_irq(&t, 1, 20);
	func_duration_task_switch_out(&t, 1, 340, 520);
	func_duration_task_switch_in(&t, 1, 440, 520, 440);
	bd_case(test, "interrupt clamped", &t, 1, &snap, 110, 0, 0, 100, 10);

	/* Straddling a stop, or a restart: no breakdown */
	func_duration_bd_enter(&t, 1, &snap);
	KUNIT_EXPECT_FALSE(test, func_duration_bd_return(&t, 0, &snap, 10, &p));
	KUNIT_EXPECT_FALSE(test, func_duration_bd_return(&t, 2, &snap, 10, &p));

	/* Entered stopped, returning after a start: no breakdown */
	memset(&t, 0, sizeof(t));
	func_duration_bd_enter(&t, 0, &snap);
	KUNIT_EXPECT_EQ(test, snap.gen, 0);
	KUNIT_EXPECT_FALSE(test, func_duration_bd_return(&t, 1, &snap, 10, &p));
	KUNIT_EXPECT_FALSE(test, func_duration_bd_return(&t, 0, &snap, 10, &p));

	/*
	 * Asleep through a restart: the totals start again at its switch-in,
	 * and only a call entered since has a breakdown.
	 */
	func_duration_bd_enter(&t, 1, &older);
	func_duration_task_switch_out(&t, 1, 10, 520);
	func_duration_task_switch_in(&t, 2, 50, 520, 30);
	KUNIT_EXPECT_EQ(test, t.gen, 2);
	KUNIT_EXPECT_EQ(test, t.off, 0);
	KUNIT_EXPECT_EQ(test, t.runnable, 0);
	func_duration_bd_enter(&t, 2, &snap);
	func_duration_task_switch_out(&t, 2, 60, 520);
	func_duration_task_switch_in(&t, 2, 65, 520, 58);
	bd_case(test, "after a restart", &t, 2, &snap, 20, 15, 5, 0, 0);
	KUNIT_EXPECT_FALSE(test, func_duration_bd_return(&t, 2, &older, 80, &p));
}

#define BD_SEED		0xbd2026
#define BD_STEPS	20000
#define BD_DEPTH	8
#define BD_CPUS		4
#define BD_IRQS		2	/* a hard interrupt in a soft one */
#define BD_START	1000	/* keeps every CPU's clock positive */

/* What the model's task does */
enum bd_doing { BD_RUNS, BD_WAITS, BD_SLEEPS };

struct bd_call {
	struct func_duration_bd_snap	snap;	/* the tracer's */
	struct func_duration_parts	want;	/* the model's, so far */
	u64				clock;	/* its CPU's clock on entry */
	u64				at;	/* the model's time of entry */
	unsigned int			cpu;
	unsigned int			era;	/* generation changes before it */
	unsigned int			skews;	/* skewed intervals before it */
	bool				live;	/* entered with the probes live */
};

struct bd_sim {
	struct kunit			*test;
	struct rnd_state		rnd;
	unsigned int			step;
	bool				failed;

	/* The tracer's state */
	struct func_duration_task	task;
	struct func_duration_cpu_irq	cpu_irq[BD_CPUS];
	u32				gen;
	u32				last_gen;

	/* The model's */
	u64				now;
	s64				offset[BD_CPUS]; /* of each clock */
	u64				spread;	/* the most two differ */
	struct bd_call			calls[BD_DEPTH];
	unsigned int			depth;
	unsigned int			era;	/* generation changes so far */
	enum bd_doing			doing;
	unsigned int			cpu;	/* where it runs, or last ran */
	unsigned int			out_cpu; /* whose clock timed its switch-out */
	/*
	 * The scheduler's sched_info: the time the task waited on
	 * runqueues it left, and since when it waits on the one it is on.
	 * A runqueue's clock times both ends of a wait on it, so the model
	 * keeps the wait exact and stamps it on the clock of the CPU the
	 * task is switched in on.
	 */
	u64				run_delay;
	u64				queued_at;
	bool				queued;
	unsigned int			skews;
	unsigned int			irqs;	/* nested on its CPU */
	u64				irq_at[BD_IRQS];
	unsigned int			irq_era[BD_IRQS];

	/* What was covered */
	unsigned int			exact, skewed, stopped, straddled;
	unsigned int			unordered, spurious, unwoken, woken;
	unsigned int			migrations, requeued, nested, restarts;
};

static __printf(3, 4) bool bd_check(struct bd_sim *s, bool ok,
				    const char *fmt, ...)
{
	char msg[128];
	va_list args;

	if (ok)
		return true;
	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	KUNIT_FAIL(s->test, "seed %#x, step %u, depth %u, generation %u: %s",
		   BD_SEED, s->step, s->depth, s->gen, msg);
	s->failed = true;
	return false;
}

static bool bd_near(u64 got, u64 want, u64 slack)
{
	return got <= want + slack && want <= got + slack;
}

static u64 bd_clock(struct bd_sim *s, unsigned int cpu)
{
	return s->now + s->offset[cpu];
}

/* Time passes: each open call adds it to what the task does now */
static void bd_sim_advance(struct bd_sim *s, u64 dt)
{
	unsigned int i;

	for (i = 0; i < s->depth; i++) {
		struct func_duration_parts *want = &s->calls[i].want;

		if (s->doing == BD_SLEEPS)
			want->blocked += dt;
		else if (s->doing == BD_WAITS)
			want->runnable += dt;
		else if (s->irqs)
			want->irq += dt;
		else
			want->running += dt;
	}
	s->now += dt;
}

static void bd_sim_enter(struct bd_sim *s)
{
	struct bd_call *c = &s->calls[s->depth++];

	memset(c, 0, sizeof(*c));
	c->clock = bd_clock(s, s->cpu);
	c->at = s->now;
	c->cpu = s->cpu;
	c->era = s->era;
	c->skews = s->skews;
	c->live = s->gen != 0;
	func_duration_bd_enter(&s->task, s->gen, &c->snap);
}

static void bd_sim_return(struct bd_sim *s)
{
	struct bd_call *c = &s->calls[--s->depth];
	s64 duration = bd_clock(s, s->cpu) - c->clock;
	const struct func_duration_parts *want = &c->want;
	struct func_duration_parts got;
	unsigned int skews;
	u64 slack;
	bool has;

	if (!bd_check(s, want->running + want->runnable + want->blocked +
		      want->irq == s->now - c->at, "the model lost time"))
		return;
	/* Returned "before" it was called: the tracer drops it */
	if (duration < 0) {
		s->unordered++;
		return;
	}

	has = c->live && c->era == s->era;
	if (!bd_check(s, func_duration_bd_return(&s->task, s->gen, &c->snap,
						 duration, &got) == has,
		      "breakdown %s, the model says %s",
		      has ? "none" : "given", has ? "yes" : "no"))
		return;
	if (!has) {
		if (c->live)
			s->straddled++;
		else
			s->stopped++;
		return;
	}

	bd_check(s, got.running + got.runnable + got.blocked + got.irq ==
		 duration && got.running <= duration &&
		 got.runnable <= duration && got.blocked <= duration &&
		 got.irq <= duration,
		 "parts %llu %llu %llu %llu of %lld",
		 got.running, got.runnable, got.blocked, got.irq, duration);

	/*
	 * Intervals timed on two clocks are off by up to their spread, and
	 * the clamps pass that on to the next parts: a loose bound then.
	 */
	skews = s->skews - c->skews;
	if (skews || s->offset[c->cpu] != s->offset[s->cpu]) {
		slack = (4 * skews + 8) * s->spread;
		bd_check(s, bd_near(got.running, want->running, slack) &&
			 bd_near(got.runnable, want->runnable, slack) &&
			 bd_near(got.blocked, want->blocked, slack) &&
			 bd_near(got.irq, want->irq, slack),
			 "parts %llu %llu %llu %llu, far from %llu %llu %llu %llu",
			 got.running, got.runnable, got.blocked, got.irq,
			 want->running, want->runnable, want->blocked,
			 want->irq);
		s->skewed++;
		return;
	}
	bd_check(s, got.running == want->running &&
		 got.runnable == want->runnable &&
		 got.blocked == want->blocked && got.irq == want->irq,
		 "parts %llu %llu %llu %llu, not %llu %llu %llu %llu",
		 got.running, got.runnable, got.blocked, got.irq,
		 want->running, want->runnable, want->blocked, want->irq);
	s->exact++;
}

/* The scheduler queues the task: preempted, or woken */
static void bd_sim_queue(struct bd_sim *s)
{
	s->queued = true;
	s->queued_at = s->now;
	s->doing = BD_WAITS;
}

/* The probes run only while live: generation 0 calls none */
static void bd_sim_switch_out(struct bd_sim *s, bool runnable)
{
	if (s->gen)
		func_duration_task_switch_out(&s->task, s->gen,
					      bd_clock(s, s->cpu), s->run_delay);
	s->out_cpu = s->cpu;
	if (runnable)
		bd_sim_queue(s);
	else
		s->doing = BD_SLEEPS;
}

/* Woken, whatever the task does: only a sleeper is queued */
static void bd_sim_wakeup(struct bd_sim *s)
{
	if (s->doing != BD_SLEEPS) {
		s->spurious++;
		return;
	}
	bd_sim_queue(s);
	s->woken++;
}

/* A waiting task moves to another runqueue: its wait there so far counts */
static void bd_sim_requeue(struct bd_sim *s)
{
	if (!s->queued)
		return;
	s->run_delay += s->now - s->queued_at;
	s->queued_at = s->now;
	s->requeued++;
}

/*
 * Back on a CPU, one time in three maybe another one. A sleeper switched
 * in without a wakeup (which the scheduler does not do) was not queued.
 */
static void bd_sim_switch_in(struct bd_sim *s)
{
	unsigned int cpu = s->cpu;
	u64 queued = 0;

	if (prandom_u32_state(&s->rnd) % 3 == 0)
		cpu = prandom_u32_state(&s->rnd) % BD_CPUS;
	if (cpu != s->cpu)
		s->migrations++;
	if (s->doing == BD_SLEEPS)
		s->unwoken++;
	if (s->offset[cpu] != s->offset[s->out_cpu])
		s->skews++;
	if (s->queued)
		queued = s->queued_at + s->offset[cpu];
	if (s->gen)
		func_duration_task_switch_in(&s->task, s->gen, bd_clock(s, cpu),
					     s->run_delay, queued);
	if (s->queued)
		s->run_delay += s->now - s->queued_at;
	s->queued = false;
	s->cpu = cpu;
	s->doing = BD_RUNS;
}

/* Interrupts on the task's CPU, which it cannot leave meanwhile */
static void bd_sim_irq_enter(struct bd_sim *s)
{
	unsigned int level = s->irqs++;

	if (level)
		s->nested++;
	s->irq_at[level] = s->now;
	s->irq_era[level] = s->era;
	if (s->gen)
		func_duration_irq_enter(&s->cpu_irq[s->cpu], s->gen,
					bd_clock(s, s->cpu));
}

/*
 * Timed: the outermost interrupt whose beginning was seen in this
 * generation. Its time is the task's if it interrupted the task.
 */
static void bd_sim_irq_exit(struct bd_sim *s)
{
	unsigned int level = --s->irqs;
	bool seen = s->irq_era[level] == s->era;
	bool outer_seen = level && s->irq_era[level - 1] == s->era;
	u64 want = seen && !outer_seen ? s->now - s->irq_at[level] : 0;
	u64 ns;

	if (!s->gen)
		return;
	ns = func_duration_irq_exit(&s->cpu_irq[s->cpu], s->gen,
				    bd_clock(s, s->cpu));
	if (!bd_check(s, ns == want, "interrupt of %llu, not %llu", ns, want))
		return;
	if (ns && s->doing == BD_RUNS)
		func_duration_task_add_irq(&s->task, s->gen, ns);
}

static void bd_sim_generation(struct bd_sim *s, u32 gen)
{
	s->gen = gen;
	s->era++;
}

/* Mostly short steps, some of no time at all */
static u64 bd_sim_dt(struct bd_sim *s)
{
	u32 r = prandom_u32_state(&s->rnd);

	return r % 8 ? 1 + (r >> 3) % 64 : 0;
}

static void bd_sim_step(struct bd_sim *s)
{
	unsigned int r = prandom_u32_state(&s->rnd) % 1000;
	bool task = s->doing == BD_RUNS && !s->irqs;

	bd_sim_advance(s, bd_sim_dt(s));
	if (r < 160) {
		if (task && s->depth < BD_DEPTH)
			bd_sim_enter(s);
	} else if (r < 320) {
		if (task && s->depth)
			bd_sim_return(s);
	} else if (r < 400) {
		if (task)
			bd_sim_switch_out(s, true);
	} else if (r < 470) {
		if (task)
			bd_sim_switch_out(s, false);
	} else if (r < 540) {
		bd_sim_wakeup(s);
	} else if (r < 560) {
		bd_sim_requeue(s);
	} else if (r < 760) {
		if (s->doing != BD_RUNS && !s->irqs)
			bd_sim_switch_in(s);
	} else if (r < 860) {
		if (s->irqs < BD_IRQS)
			bd_sim_irq_enter(s);
	} else {
		if (s->irqs)
			bd_sim_irq_exit(s);
	}

	/* The probes stop for a few steps now and then, or restart at once */
	r = prandom_u32_state(&s->rnd) % 1000;
	if (!s->gen) {
		if (r < 50)
			bd_sim_generation(s, ++s->last_gen);
	} else if (r < 3) {
		bd_sim_generation(s, 0);
	} else if (r < 4) {
		bd_sim_generation(s, ++s->last_gen);
		s->restarts++;
	}
}

static void func_duration_test_breakdown_model(struct kunit *test)
{
	unsigned int cpu;
	struct bd_sim *s;
	s64 lo = 0, hi = 0;

	bd_hand_cases(test);

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->test = test;
	prandom_seed_state(&s->rnd, BD_SEED);
	/* CPUs 0 and 1 agree; the others are up to 40 ns off, either way */
	for (cpu = 2; cpu < BD_CPUS; cpu++) {
		s->offset[cpu] = (s64)(prandom_u32_state(&s->rnd) % 81) - 40;
		lo = min(lo, s->offset[cpu]);
		hi = max(hi, s->offset[cpu]);
	}
	s->spread = hi - lo;
	s->now = BD_START;
	s->last_gen = 1;
	s->gen = 1;

	for (s->step = 0; s->step < BD_STEPS && !s->failed; s->step++)
		bd_sim_step(s);

	kunit_info(test, "seed %#x: %u calls checked exactly, %u across clocks\n",
		   BD_SEED, s->exact, s->skewed);
	kunit_info(test, "%u with no breakdown (%u entered stopped), %u unordered\n",
		   s->stopped + s->straddled, s->stopped, s->unordered);
	kunit_info(test, "%u wakeups (%u spurious), %u switch-ins unwoken, %u migrations, %u of a waiting task\n",
		   s->woken + s->spurious, s->spurious, s->unwoken,
		   s->migrations, s->requeued);
	kunit_info(test, "%u nested interrupts, %u restarts\n",
		   s->nested, s->restarts);
	if (s->failed)
		return;
	/* Every path was taken */
	KUNIT_EXPECT_GT(test, s->exact, 0);
	KUNIT_EXPECT_GT(test, s->skewed, 0);
	KUNIT_EXPECT_GT(test, s->stopped, 0);
	KUNIT_EXPECT_GT(test, s->straddled, 0);
	KUNIT_EXPECT_GT(test, s->spurious, 0);
	KUNIT_EXPECT_GT(test, s->unwoken, 0);
	KUNIT_EXPECT_GT(test, s->woken, 0);
	KUNIT_EXPECT_GT(test, s->migrations, 0);
	KUNIT_EXPECT_GT(test, s->requeued, 0);
	KUNIT_EXPECT_GT(test, s->nested, 0);
	KUNIT_EXPECT_GT(test, s->restarts, 0);
}

static struct kunit_case func_duration_test_cases[] = {
	KUNIT_CASE_PARAM(func_duration_parse_test, parse_gen_params),
	KUNIT_CASE_PARAM(func_duration_parse_bool_test, bool_gen_params),
	KUNIT_CASE_PARAM(func_duration_parse_max_test, max_gen_params),
	KUNIT_CASE(func_duration_parse_random_test),
	KUNIT_CASE(func_duration_bucket_edges_test),
	KUNIT_CASE(func_duration_bucket_error_test),
	KUNIT_CASE(func_duration_percentile_single_test),
	KUNIT_CASE(func_duration_percentile_rank_test),
	KUNIT_CASE(func_duration_percentile_uniform_test),
	KUNIT_CASE(func_duration_percentile_exponential_test),
	KUNIT_CASE(func_duration_percentile_edges_test),
	KUNIT_CASE(func_duration_percentile_extremes_test),
	KUNIT_CASE_PARAM(func_duration_stddev_test, stddev_gen_params),
	KUNIT_CASE(func_duration_stddev_saturate_test),
	KUNIT_CASE(func_duration_stddev_wide_test),
	KUNIT_CASE_SLOW(func_duration_concurrent_test),
	KUNIT_CASE(func_duration_memory_test),
	KUNIT_CASE(func_duration_clock_test),
	KUNIT_CASE(func_duration_test_breakdown_model),
	{}
};

static struct kunit_suite func_duration_test_suite = {
	.name = "function_duration",
	.test_cases = func_duration_test_cases,
};

kunit_test_suite(func_duration_test_suite);

MODULE_DESCRIPTION("KUnit tests for the function_duration tracer");
MODULE_LICENSE("GPL");
