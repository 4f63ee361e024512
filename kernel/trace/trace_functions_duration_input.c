// SPDX-License-Identifier: GPL-2.0
/*
 * Function duration tracer: the control files' input and output.
 *
 * What the tracer's files and those of its statistics share: copying a
 * write, the parsers of the values written (also used by the kernel
 * command line and bootconfig), the reading of a number, and the
 * messages of error_log.
 */
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_functions_duration.h"

/* Messages for error_log, indexed by enum func_duration_err. */
static const char * const func_duration_errs[] = {
	"Threshold must be a decimal number of nanoseconds",
	"Input too long",
	"All function graph slots are in use",
	"Cannot allocate the statistics",
	"Write 0 to reset the statistics",
	"Write 0 or 1",
	"Number of functions must be from 1 to 65536",
	"Not on PREEMPT_RT: its interrupt handlers and softirqs run in threads",
};

/**
 * func_duration_log_err - log an error of a control file to error_log
 * @tr: the trace array of the file
 * @file: the file's name
 * @input: the input, printable
 * @err: what went wrong
 */
void func_duration_log_err(struct trace_array *tr, const char *file,
			   const char *input, enum func_duration_err err)
{
	/* tracing_log_err() takes its table of messages as non-const. */
	tracing_log_err(tr, file, input, (const char **)func_duration_errs,
			err, 0);
}

/**
 * func_duration_log_input_err - log a rejected write to error_log
 * @tr: the trace array of the file
 * @file: the file's name
 * @input: the rejected input, NUL-terminated; made printable here
 * @err: why it was rejected
 */
void func_duration_log_input_err(struct trace_array *tr, const char *file,
				 char *input, enum func_duration_err err)
{
	char *p;

	for (p = input; *p; p++)
		*p = isprint(*p) ? *p : ' ';
	func_duration_log_err(tr, file, input, err);
}

/**
 * func_duration_get_input - copy a write to a control file
 * @tr: the trace array of the file
 * @file: the file's name, for error_log
 * @ubuf: the user buffer written
 * @cnt: its length
 * @buf: where to copy it, NUL-terminated
 * @size: the size of @buf
 *
 * A NUL byte in the write is not the end of the input: it becomes a DEL
 * character, which no parser accepts, so that "1\0junk" is rejected
 * with the file's own error instead of read as "1".
 *
 * Return: 0, -EINVAL if the input does not fit (logged to error_log), or
 * -EFAULT.
 */
int func_duration_get_input(struct trace_array *tr, const char *file,
			    const char __user *ubuf, size_t cnt,
			    char *buf, size_t size)
{
	size_t i;

	if (cnt >= size) {
		func_duration_log_err(tr, file, "", FUNC_DURATION_ERR_TOO_LONG);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	for (i = 0; i < cnt; i++) {
		if (!buf[i])
			buf[i] = '\x7f';
	}
	buf[cnt] = '\0';

	return 0;
}

/**
 * func_duration_get_bool - take a switch written to a control file
 * @tr: the trace array of the file
 * @file: the file's name, for error_log
 * @ubuf: the user buffer written
 * @cnt: its length
 * @val: where to put the switch
 *
 * Return: 0 with @val set, or -EINVAL (logged to error_log) or -EFAULT
 * with @val untouched.
 */
int func_duration_get_bool(struct trace_array *tr, const char *file,
			   const char __user *ubuf, size_t cnt, bool *val)
{
	char buf[FUNC_DURATION_INPUT_MAX + 1];
	int ret;

	ret = func_duration_get_input(tr, file, ubuf, cnt, buf, sizeof(buf));
	if (ret)
		return ret;
	if (func_duration_parse_bool(buf, val)) {
		func_duration_log_input_err(tr, file, buf, FUNC_DURATION_ERR_BOOL);
		return -EINVAL;
	}

	return 0;
}

/**
 * func_duration_parse_ns - parse a nanosecond value written to tracefs
 * @buf: NUL-terminated input
 * @val: where to store the value
 *
 * Accepts decimal digits only, with one optional trailing newline (as
 * written by echo): no sign, no blanks, no other base, nothing beyond
 * U64_MAX.
 *
 * Return: 0 on success, -EINVAL otherwise (@val is then left untouched).
 */
int func_duration_parse_ns(const char *buf, u64 *val)
{
	u64 v;

	if (!isdigit(buf[0]) || kstrtou64(buf, 10, &v))
		return -EINVAL;
	*val = v;

	return 0;
}

/**
 * func_duration_read_number - read handler of a control file holding a number
 * @ubuf: the user buffer
 * @cnt: its size
 * @ppos: the file position
 * @val: the value, printed in decimal with a newline
 *
 * Return: the bytes read, or a negative errno.
 */
ssize_t func_duration_read_number(char __user *ubuf, size_t cnt, loff_t *ppos,
				  u64 val)
{
	char buf[24];
	int len;

	len = scnprintf(buf, sizeof(buf), "%llu\n", val);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/**
 * func_duration_parse_bool - parse a switch written to tracefs
 * @buf: NUL-terminated input
 * @val: where to store the value
 *
 * Accepts "0" or "1", with one optional trailing newline.
 *
 * Return: 0 on success, -EINVAL otherwise (@val is then left untouched).
 */
int func_duration_parse_bool(const char *buf, bool *val)
{
	if (!strcmp(buf, "0") || !strcmp(buf, "0\n"))
		*val = false;
	else if (!strcmp(buf, "1") || !strcmp(buf, "1\n"))
		*val = true;
	else
		return -EINVAL;

	return 0;
}

/**
 * func_duration_parse_max - parse a number of functions to keep statistics of
 * @buf: NUL-terminated input
 * @val: where to store the value
 *
 * Accepts what func_duration_parse_ns() does, from 1 to
 * %FUNC_DURATION_STATS_LIMIT.
 *
 * Return: 0 on success, -EINVAL otherwise (@val is then left untouched).
 */
int func_duration_parse_max(const char *buf, unsigned int *val)
{
	u64 v;

	if (func_duration_parse_ns(buf, &v) || !v ||
	    v > FUNC_DURATION_STATS_LIMIT)
		return -EINVAL;
	*val = v;

	return 0;
}
