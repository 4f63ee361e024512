#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Say where a silent guest is: sample its vCPUs' program counters.

    hang-sampler.py <monitor socket> <System.map> <report> <silence s> \
        <log>...

Watches the logs (the kernel console, the guest script's output). When
none of them has grown for <silence> seconds, it asks QEMU's monitor for
every vCPU's registers ('info registers -a') ten times, half a second
apart, and appends to <report> each vCPU's program counters as symbols
of System.map, most frequent first. It samples again only after the logs
have grown. A hang that prints nothing (no lockup, stall or hung-task
report: a task that sleeps in a loop, both CPUs spinning with interrupts
off) then names its place. It only reads: the guest is never touched.
"""
import bisect
import collections
import os
import re
import socket
import sys
import time

# The program counter in 'info registers': x86_64's RIP, arm64's PC,
# 32-bit ARM's R15 (on x86_64, R15 is a general register: last resort).
PCS = [re.compile(r'\b%s=([0-9a-fA-F]{8,16})\b' % r) for r in ('RIP', 'PC', 'R15')]
CPU = re.compile(r'^CPU#(\d+)', re.M)


def load_map(path):
    addrs, names = [], []
    try:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3 and parts[1] in 'tTwW':
                    addrs.append(int(parts[0], 16))
                    names.append(parts[2])
    except OSError:
        pass
    order = sorted(range(len(addrs)), key=addrs.__getitem__)
    return [addrs[i] for i in order], [names[i] for i in order]


def symbol(addrs, names, pc):
    i = bisect.bisect_right(addrs, pc) - 1
    if i < 0 or pc - addrs[i] > 0x100000:
        return '%#x' % pc
    return '%s+%#x' % (names[i], pc - addrs[i])


def monitor(path, command):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(5)
    try:
        s.connect(path)
        s.sendall(command.encode() + b'\n')
        data = b''
        end = time.time() + 5
        while time.time() < end:
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            if not chunk:
                break
            data += chunk
            if data.count(b'(qemu)') >= 2:
                break
        return data.decode(errors='replace')
    except OSError:
        return None
    finally:
        s.close()


def sample(sock, addrs, names, report, silence):
    seen = collections.defaultdict(collections.Counter)
    for _ in range(10):
        out = monitor(sock, 'info registers -a')
        if out is None:
            return False
        cpus = CPU.split(out)
        # split() gives [before, cpu, text, cpu, text, ...]
        for cpu, text in zip(cpus[1::2], cpus[2::2]):
            m = next((m for m in (p.search(text) for p in PCS) if m), None)
            if m:
                seen[int(cpu)][symbol(addrs, names, int(m.group(1), 16))] += 1
        time.sleep(0.5)
    with open(report, 'a') as f:
        f.write('guest silent for %d s at %s; program counters, 10 samples:\n'
                % (silence, time.strftime('%H:%M:%S')))
        for cpu in sorted(seen):
            f.write('  CPU %d: %s\n' % (cpu, ', '.join(
                '%s x%d' % kv for kv in seen[cpu].most_common())))
    return True


def main():
    sock, mapfile, report, silence = sys.argv[1:5]
    silence, logs = float(silence), sys.argv[5:]
    addrs, names = load_map(mapfile)
    last, quiet, sampled, waited = None, 0.0, False, 0.0
    while True:
        if not os.path.exists(sock):
            if waited > 120 or last is not None:
                return 0	# QEMU has exited (or never started)
            waited += 1
            time.sleep(1)
            continue
        size = sum(os.path.getsize(p) for p in logs if os.path.exists(p))
        if size != last:
            last, quiet, sampled = size, 0.0, False
        elif not sampled and quiet >= silence:
            if not sample(sock, addrs, names, report, quiet):
                return 0
            sampled = True
        time.sleep(5)
        quiet += 5


if __name__ == '__main__':
    sys.exit(main())
