#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Inject NMIs into a QEMU guest through its human monitor socket.

    nmi-injector.py <monitor socket> <interval seconds> <count file>

Waits for the socket, then sends 'nmi' (an NMI on every guest CPU) every
interval until QEMU goes away, and writes the number sent to the count
file after each one.
"""
import socket
import sys
import time


def main():
    path, interval, countfile = sys.argv[1], float(sys.argv[2]), sys.argv[3]
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
