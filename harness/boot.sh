#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot a built kernel in QEMU (TCG) and run a script in the guest:
#   harness/boot.sh [options] <obj-name> <guest-script> [files-for-/extra...]
# ARCH=arm64 or arm (make check-arch): QEMU's virt machine (Cortex-A57,
# Cortex-A15), the PL011 for kernel messages and a virtio console for
# the script's output.
# Options (environment):
#   APPEND="..."     extra kernel command line
#   LOCKUP_MARGIN=.. the lockup detectors' margin for host stalls (below);
#                    empty: the kernel's defaults
#   BOOTCONFIG=file  bootconfig appended to the initrd (adds 'bootconfig')
#   TIMEOUT=secs     bound on the whole boot (default 600)
#   RUN=name         log name: $LOGS/<name>.console and <name>.out
#   INTERACTIVE=1    console on the terminal (make shell)
#   GUESTFILES=dir   files copied into the guest's /harness
#   ICOUNT=1         -icount shift=0,sleep=off (1 ns of guest time per
#                    instruction; single-threaded TCG)
#   NMI_INTERVAL=s   inject an NMI into every guest CPU each s seconds
#                    (QEMU monitor 'nmi'), from the kernel's first console
#                    line on; the count goes to $LOGS/<name>.nmi
#   SMP=spec         QEMU -smp (default 2). With APPEND=maxcpus=2,
#                    SMP=64 boots with 64 possible CPUs (NR_CPUS is 64), 2
#                    online. (-smp 2,maxcpus=64 gives 2 possible: the
#                    kernel takes the MADT's disabled CPUs as hotpluggable
#                    only under a hypervisor it recognizes, not TCG.)
#   QEMU_CPU=model   x86_64: QEMU -cpu (default: QEMU's own, qemu64),
#                    e.g. EPYC-Rome for a CPU the kernel mitigates as it
#                    does an AMD Zen 2 (make bench)
# The guest script's output (second serial port) goes to stdout and to
# $LOGS/<name>.out; kernel messages go to $LOGS/<name>.console. Exits with
# the guest script's status, or 124 on timeout, or 125 if the guest never
# reported an exit status (crash).
. "$(dirname "$0")/common.sh"

name=$1 script=$2
shift 2
RUN=${RUN:-$name}
TIMEOUT=${TIMEOUT:-600}
KERNEL=$OUT/obj-$name/$KIMAGE
BASEIMG=$OUT/initramfs-$name.cpio.gz
[ -f "$KERNEL" ] || die "no kernel $KERNEL (build it first)"
[ -f "$BASEIMG" ] || die "no initramfs $BASEIMG"

# A small per-boot archive with the script and any extra files, appended
# to the base one (the kernel unpacks concatenated archives in order).
RUNDIR=$OUT/runfs-$RUN
rm -rf "$RUNDIR"
mkdir -p "$RUNDIR/harness" "$RUNDIR/extra"
cp "$script" "$RUNDIR/harness/run.sh"
[ -n "$INTERACTIVE" ] && touch "$RUNDIR/harness/interactive"
for f in "$@"; do cp -r "$f" "$RUNDIR/extra/"; done
[ -n "$GUESTFILES" ] && cp -r "$GUESTFILES/." "$RUNDIR/harness/"
INITRD=$OUT/initrd-$RUN.img
(cd "$RUNDIR" && find . | cpio -o -H newc --quiet | gzip -1) > "$INITRD.run"
cat "$BASEIMG" "$INITRD.run" > "$INITRD"
rm -f "$INITRD.run"
if [ -n "$BOOTCONFIG" ]; then
	"$TOP/harness/bootconfig-tool.sh" -a "$BOOTCONFIG" "$INITRD" >/dev/null ||
		die "bootconfig $BOOTCONFIG rejected"
	APPEND="bootconfig $APPEND"
fi

SMP=${SMP:-2}
accel="-accel tcg,thread=single"
[ -n "$ICOUNT" ] && accel="-accel tcg -icount shift=0,sleep=off"
case $ARCH in
x86_64)	qemu="qemu-system-x86_64 -m 2G${QEMU_CPU:+ -cpu $QEMU_CPU}" console=ttyS0;;
arm64)	qemu="qemu-system-aarch64 -M virt -cpu cortex-a57 -m 2G" console=ttyAMA0;;
arm)	qemu="qemu-system-arm -M virt -cpu cortex-a15 -m 1G" console=ttyAMA0;;
esac
# arm64 and arm: one host thread per vCPU. ARM's code patching
# broadcasts a TLB flush per call site, which single-threaded TCG
# completes only when its round-robin kick (100 ms) reaches the CPU
# spinning in stop_machine: an hour per ftrace update of 20000 sites.
[ "$ARCH" != x86_64 ] && [ -z "$ICOUNT" ] && accel="-accel tcg,thread=multi"
# QEMU options for the guest script's output to chardev $1
script_out() {
	if [ "$ARCH" = x86_64 ]; then
		echo "-serial $1"
	else
		echo "-device virtio-serial-device -chardev $1,id=out -device virtconsole,chardev=out"
	fi
}
# Host stalls: under TCG the guest's clocks follow the host's, so a host
# that stops QEMU for a while (a loaded machine) can look to the guest
# like a CPU that did not schedule (a 23 s stall inside __text_poke(),
# IRQs off, gave a soft lockup at the default 20 s). The detectors get a
# margin: a soft lockup is reported after 120 s (2 x watchdog_thresh),
# an RCU stall after 120 s. make harness-selftest shows that make check
# passes across a 40 s stop of QEMU and still fails on a real lockup.
LOCKUP_MARGIN=${LOCKUP_MARGIN-watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120}
cmdline="console=$console panic=-1 oops=panic loglevel=7 $LOCKUP_MARGIN $APPEND"
CONSOLE=$LOGS/$RUN.console
OUTLOG=$LOGS/$RUN.out

if [ -n "$INTERACTIVE" ]; then
	exec $qemu $accel -smp "$SMP" -nodefaults -no-reboot \
		-display none -kernel "$KERNEL" -initrd "$INITRD" \
		-append "$cmdline" -serial mon:stdio
fi

# NMIs from outside: under TCG there is no PMU, so no perf or watchdog
# NMIs; the monitor's 'nmi' command is the one NMI source. The guest
# takes them as unknown NMIs (one 'Uhhuh' line each) and goes on.
monitor="-monitor none"
if [ -n "$NMI_INTERVAL" ]; then
	sock=$OUT/monitor-$RUN.sock
	rm -f "$sock"
	monitor="-monitor unix:$sock,server=on,wait=off"
	rm -f "$LOGS/$RUN.nmi" "$CONSOLE"
	python3 "$TOP/harness/nmi-injector.py" "$sock" "$NMI_INTERVAL" \
		"$LOGS/$RUN.nmi" "$CONSOLE" "Linux version" &
fi

# A guest silent for HANG_SILENCE seconds (default 300: the longest
# quiet test takes about 100) gets its vCPUs' program counters sampled
# into $LOGS/<run>.hang, through a second monitor, read-only.
hangsock=$OUT/hang-$RUN.sock
HANG=$LOGS/$RUN.hang
rm -f "$hangsock" "$HANG"
python3 "$TOP/harness/hang-sampler.py" "$hangsock" "$OUT/obj-$name/System.map" \
	"$HANG" "${HANG_SILENCE:-300}" "$CONSOLE" "$OUTLOG" &
sampler=$!

# shellcheck disable=SC2046
timeout -k 10 "$TIMEOUT" $qemu $accel -smp "$SMP" \
	-nodefaults -no-reboot -display none $monitor \
	-monitor unix:"$hangsock",server=on,wait=off \
	-kernel "$KERNEL" -initrd "$INITRD" -append "$cmdline" \
	-serial file:"$CONSOLE" $(script_out stdio) </dev/null | tee "$OUTLOG"
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
rm -f "$hangsock"
[ -s "$HANG" ] && sed 's/^/harness: /' "$HANG" >&2
rc=$(sed -n 's/^HARNESS: END rc=\([0-9]*\).*/\1/p' "$OUTLOG" | tail -1)
if [ -z "$rc" ]; then
	if grep -q "HARNESS: BEGIN" "$OUTLOG"; then
		echo "harness: the guest did not finish (timeout ${TIMEOUT}s or crash); see $CONSOLE" >&2
	else
		echo "harness: the guest did not start its script; see $CONSOLE" >&2
	fi
	[ -s "$CONSOLE" ] ||
		echo "harness: QEMU exited before the kernel's console printed a line (a fault before the kernel's IDT is a triple fault, and -no-reboot exits)" >&2
	tail -n 30 "$CONSOLE" >&2
	exit 125
fi
exit "$rc"
