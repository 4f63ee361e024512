#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest output of `make bench` into a markdown report.

  bench-report.py ICOUNT.out TCG.out

Lines read: 'bench <workload> <mode> <ns per call> <ns per run> <calls>'
and 'mem <what> <value...>'. Under icount a guest ns is one instruction.
The users workload's lines are 'bench users<k> <mode> ...' (k concurrent
function-graph users) and 'bench users nop ...' (its zero).
"""
import re
import sys

MODES = ["nop", "function", "function_graph", "graph_thresh", "profiler",
         "kprobe", "fprobe", "fd_events", "fd_hooks", "fd_stats", "fd_all",
         "fd_filter", "fd_filter_drop", "fd_hist", "fd_perf"]
LABEL = {
    "nop": "nop (no tracing: the zero)",
    "function": "function tracer",
    "function_graph": "function_graph",
    "graph_thresh": "function_graph + tracing_thresh above every call",
    "profiler": "function profiler (function_profile_enabled)",
    "kprobe": "kprobe + kretprobe events",
    "fprobe": "fprobe entry + %return events",
    "fd_events": "function_duration, threshold 0, stats off (one event per call)",
    "fd_hooks": "function_duration, no event, stats off (hooks only)",
    "fd_stats": "function_duration, no event, stats on (stats only)",
    "fd_all": "function_duration, threshold 0, stats on (the default)",
    "fd_filter": "fd_events + an event filter that every call passes",
    "fd_filter_drop": "fd_events + an event filter that no call passes",
    "fd_hist": "fd_events + a hist trigger keyed by func.sym, value duration",
    "fd_perf": "fd_events + perf_enable and perf stat -a counting the event",
}
CONSUMERS = ["fd_filter", "fd_filter_drop", "fd_hist", "fd_perf"]
WORKLOADS = ["syscall", "nested", "system"]


def parse(path):
    per_call, mem, notes = {}, [], []
    for line in open(path, errors="replace"):
        f = line.split()
        if len(f) >= 6 and f[0] == "bench":
            per_call[(f[1], f[2])] = (float(f[3]), int(f[4]), int(f[5]))
        elif f and f[0] == "mem":
            mem.append(" ".join(f[1:]))
        elif line.startswith("bench:"):
            notes.append(line.strip())
    return per_call, mem, notes


USERS_MODES = ["fd_hooks", "graph_thresh"]
USERS_LIMIT, USERS_TARGET_K = 1.15, 15    # issue 6: k = 15 ≤ 1.15 × k = 1


def users(out, icount):
    """The users<k> section: k concurrent function-graph users."""
    ks = sorted({int(m.group(1)) for (w, _) in icount
                 for m in [re.fullmatch(r"users(\d+)", w)] if m})
    if not ks:
        return
    calls = icount.get(("users", "nop"), (0, 0, 0))[2]
    out.append(f"## users: k concurrent function-graph users ({calls} traced calls per run)")
    out.append("")
    out.append("The syscall workload with k tracing instances, each one "
               "function-graph user: the first traces the getppid path, "
               "the other k − 1 functions the loop never calls; top-level "
               "nop. fd_hooks: function_duration with no event and stats "
               "off in each instance; graph_thresh: function_graph in each "
               "instance under a tracing_thresh above every call. "
               "Instructions per traced call (the median of USERS_REPS runs, "
               "see the notes below), and the ratio to k = 1 of the same "
               "mode; icount boot only.")
    out.append("")
    out.append("| instances (k) | " + " | ".join(
        f"{m} | {m} × k=1" for m in USERS_MODES) + " |")
    out.append("|---:|" + "---:|---:|" * len(USERS_MODES))
    for k in ks:
        cells = []
        for m in USERS_MODES:
            v = icount.get((f"users{k}", m))
            one = icount.get(("users1", m))
            if v is None:
                cells += ["-", "-"]
                continue
            cells.append(f"{v[0]:.0f}")
            cells.append(f"{v[0] / one[0]:.2f}" if one and one[0] > 0 else "-")
        out.append(f"| {k} | " + " | ".join(cells) + " |")
    out.append("")
    kmax = USERS_TARGET_K
    out.append(f"Target (issue 6): k = {kmax} ≤ {USERS_LIMIT} × k = 1.")
    out.append("")
    out.append("| mode | measured | met |")
    out.append("|---|---:|---|")
    for m in USERS_MODES:
        v, one = icount.get((f"users{kmax}", m)), icount.get(("users1", m))
        if v is None or one is None or one[0] <= 0:
            out.append(f"| {m} | - | not measured |")
            continue
        r = v[0] / one[0]
        out.append(f"| {m} | {r:.2f} (limit {USERS_LIMIT}) | "
                   f"{'yes' if r <= USERS_LIMIT else 'NO'} |")
    out.append("")
    out.append("```")
    for k in ks:
        for m in USERS_MODES:
            v = icount.get((f"users{k}", m))
            if v is not None:
                out.append(f"bench users{k} {m} {v[0]:.1f}")
    out.append("```")
    out.append("")


def main():
    icount, mem, notes = parse(sys.argv[1])
    tcg, _, _ = parse(sys.argv[2]) if len(sys.argv) > 2 else ({}, [], [])
    out = ["# make bench", ""]
    out.append("Cost per traced call, in instructions (QEMU `-icount shift=0`: "
               "one guest ns per instruction), median of 3 runs after a warm-up, "
               "minus the untraced run (nop). Ratios are to function_graph and "
               "to function_graph + tracing_thresh in the same run. The TCG "
               "column is guest ns per call under plain TCG: wall-clock, for "
               "reference only.")
    out.append("")
    for w in WORKLOADS:
        rows = [m for m in MODES if (w, m) in icount]
        if not rows:
            continue
        calls = icount[(w, "nop")][2]
        out.append(f"## {w} ({calls} traced calls per run)")
        out.append("")
        out.append("| mode | instructions/call | × function_graph | × graph_thresh | TCG ns/call |")
        out.append("|---|---:|---:|---:|---:|")
        g = icount.get((w, "function_graph"), (0,))[0]
        gt = icount.get((w, "graph_thresh"), (0,))[0]
        for m in rows:
            v = icount[(w, m)][0]
            if m == "nop":
                base = icount[(w, m)][1]
                out.append(f"| {LABEL[m]} | 0 (run: {base} instructions) | | | |")
                continue
            r1 = f"{v / g:.2f}" if g > 0 else "-"
            r2 = f"{v / gt:.2f}" if gt > 0 else "-"
            t = tcg.get((w, m))
            tv = f"{t[0]:.0f}" if t else "-"
            out.append(f"| {LABEL[m]} | {v:.0f} | {r1} | {r2} | {tv} |")
        out.append("")

    out.append("## Targets (issue 5), per workload")
    out.append("")
    out.append("| workload | target | measured | met |")
    out.append("|---|---|---:|---|")
    for w in ("syscall", "nested"):
        def v(m):
            return icount.get((w, m), (None,))[0]
        checks = [
            ("fd_events ≤ 0.5 × function_graph", v("fd_events"), v("function_graph"), 0.5),
            ("fd_hooks ≤ 0.8 × graph_thresh", v("fd_hooks"), v("graph_thresh"), 0.8),
            ("fd_stats ≤ 1.0 × profiler", v("fd_stats"), v("profiler"), 1.0),
        ]
        for m in ("fd_events", "fd_hooks", "fd_stats"):
            checks.append((f"{m} < kprobe", v(m), v("kprobe"), 1.0))
        for name, a, b, k in checks:
            if a is None or b is None or b <= 0:
                out.append(f"| {w} | {name} | - | not measured |")
                continue
            ratio = a / b
            out.append(f"| {w} | {name} | {ratio:.2f} (limit {k}) | "
                       f"{'yes' if ratio <= k else 'NO'} |")
    out.append("")
    out.append("## Consumers of the funcduration event, per event (issue 16)")
    out.append("")
    out.append("What each consumer adds to an event of fd_events, in instructions.")
    out.append("")
    out.append("| workload | consumer | instructions/event added | × fd_events |")
    out.append("|---|---|---:|---:|")
    for w in ("syscall", "nested"):
        e = icount.get((w, "fd_events"), (None,))[0]
        for m in CONSUMERS:
            c = icount.get((w, m), (None,))[0]
            if e is None or c is None or e <= 0:
                continue
            out.append(f"| {w} | {LABEL[m]} | {c - e:.0f} | {c / e:.2f} |")
    out.append("")
    users(out, icount)
    out.append("## Memory")
    out.append("")
    for m in mem:
        f = m.split()
        if f[0].startswith("ring_bytes_per_call_"):
            out.append(f"- ring buffer, {f[0][len('ring_bytes_per_call_'):]}: "
                       f"{f[1]} bytes per traced call {' '.join(f[2:])}")
        elif f[0].startswith("stats_bytes_"):
            out.append(f"- statistics of one instance, stats_max_functions "
                       f"{f[0][len('stats_bytes_'):]}: {f[1]} bytes")
        else:
            out.append(f"- statistics footer: {m}")
    out.append("- shadow stack: 16 bytes per call counted by the statistics "
               "(fgraph_reserve_data() of 8 bytes: one data word and one "
               "header word on 64-bit); nothing beyond the function graph "
               "frame in events-only or hooks-only mode")
    out.append("")
    for n in notes:
        out.append(f"- {n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
