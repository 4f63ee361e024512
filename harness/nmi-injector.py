#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Inject NMIs into a QEMU guest through its human monitor socket.

    nmi-injector.py <monitor socket> <interval seconds> <count file> \
        [<kernel log> <line>]

Waits for the socket, then sends 'nmi' (an NMI on every guest CPU) every
interval until QEMU goes away, and writes the number sent to the count
file after each one. With a kernel log, the first NMI waits until the
line is in it.

An x86 kernel has no IDT until x86_64_start_kernel() loads its early one
(after clearing the BSS): an NMI before that is a triple fault, and QEMU
-no-reboot exits with nothing on the console. The first line the serial
console prints ("Linux version") comes long after the early IDT.
"""
import socket
import sys
import time


def wait_for_line(log, line, limit):
    waited = 0.0
    while waited < limit:
        try:
            with open(log, errors='replace') as f:
                if line in f.read():
                    return True
        except OSError:
            pass
        time.sleep(0.1)
        waited += 0.1
    return False


def main():
    path, interval, countfile = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    if len(sys.argv) > 5 and not wait_for_line(sys.argv[4], sys.argv[5], 600):
        return 0	# the kernel never got to its console
    sent = 0
    waited = 0.0
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
        except OSError:
            s.close()
            if sent or waited > 120:
                return 0	# QEMU has exited (or never started)
            time.sleep(0.5)
            waited += 0.5
            continue
        try:
            s.settimeout(interval)
            while True:
                # Read what the monitor prints, so its output never
                # fills the socket; the wait is the interval.
                try:
                    if not s.recv(4096):
                        return 0
                    continue
                except socket.timeout:
                    pass
                s.sendall(b'nmi\n')
                sent += 1
                with open(countfile, 'w') as f:
                    f.write('%d\n' % sent)
        except OSError:
            return 0
        finally:
            s.close()


if __name__ == '__main__':
    sys.exit(main())
