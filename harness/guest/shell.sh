#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# `make shell`: an interactive shell on the console, tracefs mounted.
cd /sys/kernel/tracing
echo "tracefs is mounted at /sys/kernel/tracing (the current directory)."
echo "Exit the shell to power the guest off."
setsid cttyhack sh -l
