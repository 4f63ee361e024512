// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the function_duration tracer's input parsing.
 */
#include <kunit/test.h>
#include <linux/ctype.h>
#include <linux/limits.h>

#include "trace.h"

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

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	int i, n = 0;

	for (i = 0; c->input[i] && n < KUNIT_PARAM_DESC_SIZE - 5; i++)
		n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n,
			       isprint(c->input[i]) ? "%c" : "\\x%02x",
			       (unsigned char)c->input[i]);
	if (!n)
		strscpy(desc, "(empty)", KUNIT_PARAM_DESC_SIZE);
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

static struct kunit_case func_duration_test_cases[] = {
	KUNIT_CASE_PARAM(func_duration_parse_test, parse_gen_params),
	{}
};

static struct kunit_suite func_duration_test_suite = {
	.name = "function_duration",
	.test_cases = func_duration_test_cases,
};

kunit_test_suite(func_duration_test_suite);

MODULE_DESCRIPTION("KUnit tests for the function_duration tracer");
MODULE_LICENSE("GPL");
