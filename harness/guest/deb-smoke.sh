#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make deb's smoke boot: the kernel of the linux-image package, its
# first trace with funcdur.
echo "uname -r: $(uname -r)"
echo "available_tracers: $(cat /sys/kernel/tracing/available_tracers)"
echo "# funcdur top --once -f 'vfs_*' -- sh -c 'cat /proc/version > /dev/null; sleep 1'"
funcdur top --once -f 'vfs_*' -- sh -c 'cat /proc/version > /dev/null; sleep 1'
