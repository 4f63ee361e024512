// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark workload for `make bench`: an in-kernel loop over a small
 * nested call tree of traceable functions, so that the cost of tracing a
 * call is measured without system call noise, and with nesting (which
 * self time depends on).
 *
 * Each iteration makes 6 calls: fdb_outer() calls fdb_mid_a(), which
 * calls fdb_leaf() twice, and fdb_mid_b(), which calls it once. A leaf
 * runs about 1500 instructions, so that under -icount every call lasts
 * longer than the smallest tracing_thresh (1 us): function_graph with it
 * writes one event per call (the graph_thresh_events mode).
 *
 *   echo N > /sys/kernel/debug/fdur_bench/run    run N iterations
 *   cat /sys/kernel/debug/fdur_bench/run         ns the last run took
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

static u64 fdb_sink;
static u64 fdb_last_ns;
static DEFINE_MUTEX(fdb_lock);
static struct dentry *fdb_dir;

#define FDB_LEAF_ROUNDS	250

noinline void fdb_leaf(u64 v)
{
	int i;

	for (i = 0; i < FDB_LEAF_ROUNDS; i++)
		WRITE_ONCE(fdb_sink, READ_ONCE(fdb_sink) + v + i);
}

noinline void fdb_mid_a(u64 v)
{
	fdb_leaf(v);
	fdb_leaf(v + 1);
}

noinline void fdb_mid_b(u64 v)
{
	fdb_leaf(v + 2);
}

noinline void fdb_outer(u64 v)
{
	fdb_mid_a(v);
	fdb_mid_b(v);
}

static ssize_t fdb_run_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	u64 n, i, t0;
	int ret;

	ret = kstrtou64_from_user(ubuf, cnt, 10, &n);
	if (ret)
		return ret;

	mutex_lock(&fdb_lock);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++)
		fdb_outer(i);
	fdb_last_ns = ktime_get_ns() - t0;
	mutex_unlock(&fdb_lock);

	return cnt;
}

static ssize_t fdb_run_read(struct file *filp, char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	char buf[32];
	int len;

	mutex_lock(&fdb_lock);
	len = scnprintf(buf, sizeof(buf), "%llu\n", fdb_last_ns);
	mutex_unlock(&fdb_lock);

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

static const struct file_operations fdb_run_fops = {
	.write	= fdb_run_write,
	.read	= fdb_run_read,
	.llseek	= default_llseek,
};

static int __init fdb_init(void)
{
	fdb_dir = debugfs_create_dir("fdur_bench", NULL);
	debugfs_create_file("run", 0600, fdb_dir, NULL, &fdb_run_fops);
	return 0;
}

static void __exit fdb_exit(void)
{
	debugfs_remove_recursive(fdb_dir);
}

module_init(fdb_init);
module_exit(fdb_exit);
MODULE_DESCRIPTION("Nested call tree workload for make bench");
MODULE_LICENSE("GPL");
