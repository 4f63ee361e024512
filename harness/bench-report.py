#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest output of `make bench` into a markdown report.

  bench-report.py ICOUNT.out TCG.out [VANILLA.out [NOMIT.out VANILLA-NOMIT.out
                  [CPU.out VANILLA-CPU.out CPU-MODEL]]]

Lines read: 'bench <workload> <mode> <ns per call> <ns per run> <calls>'
and 'mem <what> <value...>'. Under icount a guest ns is one instruction.
The users workload's lines are 'bench users<k> <mode> ...' (k concurrent
function-graph users) and 'bench users nop ...' (its zero). The switch
workload's are 'bench switch <mode> <ns per context switch> <ns per run>
<context switches per run>' (modes none, fd_hooks_nobd, fd_hooks_bd).
Older result files, without the breakdown's modes or the switch workload,
give a report without the Breakdown section. NOMIT and VANILLA-NOMIT
are the icount boots with mitigations=off, CPU and VANILLA-CPU those on
QEMU's CPU model CPU-MODEL (syscall and nested only).
"""
import os
import re
import sys

MODES = ["nop", "function", "function_graph", "graph_thresh",
         "graph_thresh_events", "profiler", "profiler_self", "kprobe", "fprobe", "bpf_fentry",
         "bpf_kprobe", "bpf_fsession", "fd_events", "fd_hooks", "fd_stats", "fd_all",
         "fd_filter", "fd_filter_drop", "fd_hist", "fd_perf",
         "fd_breakdown", "fd_stats_breakdown"]
LABEL = {
    "nop": "nop (no tracing: the zero)",
    "function": "function tracer",
    "function_graph": "function_graph",
    "graph_thresh": "function_graph + tracing_thresh above every call",
    "graph_thresh_events": "function_graph + tracing_thresh 1 us (one exit event per call)",
    "bpf_fentry": "BPF fentry + fexit, funclatency's shape (start map, log2 histogram)",
    "bpf_kprobe": "BPF kprobe + kretprobe, the same program (bcc's shape)",
    "bpf_fsession": "BPF fsession on one tracing-multi link (cookie start, log2 histogram)",
    "profiler_self": "function profiler with graph-time off (self time)",
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
    "fd_breakdown": "fd_events + breakdown 1 (running/runnable/blocked/irq)",
    "fd_stats_breakdown": "fd_stats + breakdown 1 (running/runnable/blocked/irq)",
}
CONSUMERS = ["fd_filter", "fd_filter_drop", "fd_hist", "fd_perf"]
WORKLOADS = ["syscall", "nested", "system"]


def vulnerabilities(path):
    """The guest's 'vuln <name>: <state>' lines."""
    try:
        return [line.strip()[5:] for line in open(path, errors="replace")
                if line.startswith("vuln ")]
    except OSError:
        return []


def streams(path, kernel):
    """'stream <tracer> <ns> <written> <read> <lost>' lines."""
    got = []
    try:
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) == 6 and f[0] == "stream":
                got.append((kernel, f[1], int(f[2]), int(f[3]), int(f[4]), int(f[5])))
    except OSError:
        pass
    return got


def rb_writes(path):
    """'rb write <guest us> <entries>': ring_buffer_benchmark's writer."""
    try:
        for line in open(path, errors="replace"):
            f = line.split()
            if len(f) == 4 and f[:2] == ["rb", "write"] and int(f[3]) > 0:
                return int(f[2]), int(f[3])
    except OSError:
        pass
    return None


def ring_buffer_benchmark(out, series, vanilla):
    if not series:
        return
    out.append("## The ring buffer's own benchmark")
    out.append("")
    out.append("kernel/trace/ring_buffer_benchmark.c, writer only "
               "(`disable_reader=1`): one thread reserving and committing "
               "10-byte events into a buffer of its own for 10 guest "
               "seconds, overwriting when full, `ktime_get()` every 50 "
               "events. Instructions per event (guest ns under icount), "
               "its loop included.")
    out.append("")
    out.append("| kernel | guest µs | events | instructions/event | × vanilla |")
    out.append("|---|---:|---:|---:|---:|")
    for name, r in (("series", series), ("vanilla", vanilla)):
        if r:
            per = 1000.0 * r[0] / r[1]
            x = (per / (1000.0 * vanilla[0] / vanilla[1])) if vanilla else None
            out.append(f"| {name} | {r[0]} | {r[1]} | {per:.1f} | "
                       f"{x:.3f} |" if x else f"| {name} | {r[0]} | {r[1]} | {per:.1f} | |")
    out.append("")


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
USERS_LIMIT, USERS_TARGET_K = 1.10, 15    # issue 31: k = 15 ≤ 1.10 × k = 1


def users(out, icount, vanilla=None):
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
    vanilla = vanilla or {}
    vcols = [m for m in USERS_MODES if ("users1", m) in vanilla]
    out.append("| instances (k) | " + " | ".join(
        f"{m} | {m} × k=1" for m in USERS_MODES) +
        "".join(f" | vanilla {m} | vanilla × k=1" for m in vcols) + " |")
    out.append("|---:|" + "---:|---:|" * (len(USERS_MODES) + len(vcols)))
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
        for m in vcols:
            v, one = vanilla.get((f"users{k}", m)), vanilla.get(("users1", m))
            cells.append(f"{v[0]:.0f}" if v else "-")
            cells.append(f"{v[0] / one[0]:.2f}" if v and one[0] > 0 else "-")
        out.append(f"| {k} | " + " | ".join(cells) + " |")
    out.append("")
    kmax = USERS_TARGET_K
    out.append(f"Target (issue 31): k = {kmax} ≤ {USERS_LIMIT} × k = 1.")
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


# The floor of a timed call on x86_64, from the code (perf-floor.md part 5
# in ../shared/reference, and the report's own section): instructions.
FLOOR = {
    "fd_hooks": 95,    # fentry call + trampoline, shadow push/pop, 2 clocks
    "fd_events": 140,  # + one 56-byte event, lockless per-CPU reserve/commit
    "fd_stats": 125,   # + per-CPU row lookup, counters, bucket, self clock
    "fd_all": 170,     # + both
}
UPSTREAM = ["function", "function_graph", "graph_thresh", "profiler",
            "kprobe", "fprobe"]
REGRESSION_LIMIT = 1.01   # upstream tracers within 1 % of vanilla
# issue 31's targets: every mode a user picks below the BPF peers
FD_MODES = ["fd_events", "fd_hooks", "fd_stats", "fd_all"]
PEERS = ["bpf_fentry", "bpf_kprobe", "bpf_fsession"]
PEER_TARGETS = ["bpf_fentry", "bpf_fsession"]
FLOOR_LIMIT = {"fd_hooks": 3.0, "fd_events": 3.5}
STREAM_LOSS_LIMIT = 5.0     # % of function_duration's events, default buffer
SWITCH_LIMIT = 2.0          # % per context switch added by the breakdown


def fmt(v, nd=0):
    return "-" if v is None else f"{v:.{nd}f}"


def ratio(a, b):
    return None if a is None or b is None or b <= 0 else a / b


def verdict(r, k):
    return f"{r:.2f} (limit {k}) | {'yes' if r <= k else 'NO'}"


def targets(out, icount, vanilla, streams):
    """Issue 31's targets, each a ratio within this run."""
    out.append("## Targets (issue 31): ratios in one run")
    out.append("")
    out.append("Against the unpatched base (vanilla) and the BPF peers in the "
               "same `make bench`, instructions per traced call.")
    out.append("")
    out.append("| workload | target | measured | met |")
    out.append("|---|---|---:|---|")
    for w in ("syscall", "nested"):
        def s(m):
            return icount.get((w, m), (None,))[0]

        def v(m):
            return vanilla.get((w, m), (None,))[0]
        checks = [
            ("fd_events ≤ 0.5 × vanilla function_graph", s("fd_events"), v("function_graph"), 0.5),
            ("fd_events ≤ 0.8 × vanilla graph_thresh_events", s("fd_events"), v("graph_thresh_events"), 0.8),
            ("fd_hooks ≤ 0.8 × vanilla graph_thresh", s("fd_hooks"), v("graph_thresh"), 0.8),
            ("fd_stats ≤ 0.9 × vanilla profiler_self", s("fd_stats"), v("profiler_self"), 0.9),
        ]
        for m in FD_MODES:
            for p in PEER_TARGETS:
                checks.append((f"{m} < {p}", s(m), s(p), 1.0))
        for m, k in FLOOR_LIMIT.items():
            checks.append((f"{m} ≤ {k} × the floor ({FLOOR[m]})", s(m), FLOOR[m], k))
        for name, a, b, k in checks:
            r = ratio(a, b)
            if r is None:
                why = "not measured"
                if "graph_thresh_events" in name and w == "syscall":
                    why = "not measurable: getppid's calls are shorter than 1 us"
                out.append(f"| {w} | {name} | - | {why} |")
                continue
            out.append(f"| {w} | {name} | {verdict(r, k)} |")
    for m in USERS_MODES[:1]:
        v, one = icount.get((f"users{USERS_TARGET_K}", m)), icount.get(("users1", m))
        name = f"{m}: {USERS_TARGET_K} users ≤ {USERS_LIMIT} × 1 user"
        r = ratio(v[0] if v else None, one[0] if one else None)
        out.append(f"| users | {name} | " +
                   (verdict(r, USERS_LIMIT) if r is not None else "- | not measured") + " |")
    fd = [x for x in streams if x[0] == "series" and x[1] == "function_duration"]
    name = f"trace-cmd record, every function, default buffer: loss < {STREAM_LOSS_LIMIT:.0f} %"
    if fd and fd[0][3]:
        pct = 100.0 * fd[0][5] / fd[0][3]
        out.append(f"| system | {name} | {pct:.1f} % | "
                   f"{'yes' if pct < STREAM_LOSS_LIMIT else 'NO'} (one run) |")
    else:
        out.append(f"| system | {name} | - | not measured |")
    sw_bd, sw_nobd = icount.get(("switch", "fd_hooks_bd")), icount.get(("switch", "fd_hooks_nobd"))
    name = f"the breakdown adds ≤ {SWITCH_LIMIT:.0f} % per context switch"
    if sw_bd and sw_nobd and sw_nobd[0] > 0:
        pct = 100.0 * (sw_bd[0] - sw_nobd[0]) / sw_nobd[0]
        out.append(f"| switch | {name} | {pct:+.1f} % | "
                   f"{'yes' if pct <= SWITCH_LIMIT else 'NO'} |")
    else:
        out.append(f"| switch | {name} | - | not measured |")
    out.append("")
    out.append("### The upstream tracers against the unpatched base")
    out.append("")
    out.append(f"The series must not make them slower: series ≤ {REGRESSION_LIMIT} × vanilla.")
    out.append("")
    out.append("| workload | mode | series | vanilla | × vanilla | within |")
    out.append("|---|---|---:|---:|---:|---|")
    for w in WORKLOADS:
        for m in UPSTREAM + ["profiler_self", "graph_thresh_events"] + PEERS:
            a = icount.get((w, m), (None,))[0]
            b = vanilla.get((w, m), (None,))[0]
            r = ratio(a, b)
            if r is None:
                continue
            ok = "yes" if r <= REGRESSION_LIMIT else "NO"
            plain = vanilla.get((w, "profiler"), (None,))[0]
            if m == "profiler_self" and plain and abs(b / plain - 1) < 0.01:
                # Unpatched 7.3 ignores options/graph-time (fixes
                # series, patch 10): its "self time" mode is the plain
                # profiler, which computes no self time.
                ok = "not comparable: vanilla ignores graph-time (= its profiler)"
            if w == "system":
                ok += " (system: ±3 % between boots)"
            out.append(f"| {w} | {m} | {a:.0f} | {b:.0f} | {r:.3f} | {ok} |")
    out.append("")


def floor(out, icount):
    out.append("## Against the floor")
    out.append("")
    out.append("The floor is what any correct x86_64 return-hijacking timer must "
               "execute per call (counted from the code, "
               "../shared/reference/perf-floor.md part 5): the fentry call into a "
               "trampoline that saves and restores the 7 argument registers (~19); "
               "an entry handler that finds the shadow stack, stores the return "
               "address, function and start time, and swaps the return address, "
               "with one sched_clock() read (~32); the return trampoline (~8); a "
               "return handler that pops the frame, reads the clock again, "
               "subtracts and compares with the threshold (~31): about 90–100, "
               "taken as 95 (hooks only). One 56-byte event written lockless to a "
               "per-CPU buffer (reserve by xadd, time delta, header, 7 stores, "
               "commit) adds 35–45: 140. The statistics add a per-CPU row lookup "
               "by address (~10), the counters, min, max and a log2 bucket (~15) "
               "and the self-time clock (~5): 125; events and statistics: 170.")
    out.append("")
    out.append("| workload | mode | instructions/call | floor | × floor |")
    out.append("|---|---|---:|---:|---:|")
    for w in ("syscall", "nested"):
        for m, f in FLOOR.items():
            v = icount.get((w, m), (None,))[0]
            if v is not None:
                out.append(f"| {w} | {m} | {v:.0f} | {f} | {v / f:.1f} |")
    out.append("")


# The breakdown's cost per traced call: (without, with) in one run
BREAKDOWN_PAIRS = [("fd_events", "fd_breakdown"), ("fd_stats", "fd_stats_breakdown")]
SWITCH_MODES = ["none", "fd_hooks_nobd", "fd_hooks_bd"]
SWITCH_LABEL = {
    "none": "none (no tracer)",
    "fd_hooks_nobd": "fd_hooks_nobd (function_duration on, breakdown 0)",
    "fd_hooks_bd": "fd_hooks_bd (function_duration on, breakdown 1)",
}


def breakdown(out, icount, vanilla):
    """What function_duration/breakdown adds: per traced call, and per
    context switch (the scheduler and interrupt probes)."""
    pairs = [(w, a, b) for w in ("syscall", "nested") for a, b in BREAKDOWN_PAIRS
             if (w, b) in icount]
    sw = {m: icount[("switch", m)] for m in SWITCH_MODES if ("switch", m) in icount}
    vnone = vanilla.get(("switch", "none"))
    if not pairs and not sw and not vnone:
        return
    out.append("## Breakdown (function_duration/breakdown)")
    out.append("")
    if pairs:
        out.append("Per traced call, in instructions: the same mode with "
                   "breakdown 0 and 1 in the same boot (the entry notes the "
                   "task's totals, the return takes the differences). "
                   "fd_events keeps no data on the shadow stack with "
                   "breakdown 0, and reserves a frame with 1; fd_stats has "
                   "its frame (the self-time mark) either way, so its "
                   "difference is the breakdown's own work.")
        out.append("")
        out.append("| workload | mode, breakdown 0 | mode, breakdown 1 | "
                   "instructions/call, 0 | instructions/call, 1 | added | × |")
        out.append("|---|---|---|---:|---:|---:|---:|")
        for w, a, b in pairs:
            x = icount.get((w, a), (None,))[0]
            y = icount[(w, b)][0]
            d = None if x is None else y - x
            out.append(f"| {w} | {a} | {b} | {fmt(x)} | {fmt(y)} | "
                       f"{'-' if d is None else f'{d:+.0f}'} | {fmt(ratio(y, x), 3)} |")
        out.append("")
    if sw or vnone:
        n = next(iter(sw.values()))[2] if sw else vnone[2]
        out.append(f"Per context switch ({n} per run): two processes pinned to "
                   "one CPU ping-ponging a byte over two pipes, two context "
                   "switches and two wakeups per round trip, the run divided "
                   "by the switches (nothing subtracted: the pipe system calls "
                   "are in the figure). fd_hooks_*: function_duration in an "
                   "instance, no event, stats off, on functions the workload "
                   "never calls (the nested workload's), so that only what "
                   "runs at each switch differs: with breakdown 1, the "
                   "breakdown's probe on sched_switch (trees before 515d08c "
                   "had one on sched_wakeup too).")
        out.append("")
        out.append("| mode | instructions/switch | × none |")
        out.append("|---|---:|---:|")
        none = sw.get("none", (None,))[0]
        for m in SWITCH_MODES:
            if m in sw:
                out.append(f"| {SWITCH_LABEL[m]} | {sw[m][0]:.0f} | "
                           f"{fmt(ratio(sw[m][0], none), 3)} |")
        if vnone:
            out.append(f"| vanilla: none | {vnone[0]:.0f} | "
                       f"{fmt(ratio(vnone[0], none), 3)} |")
        out.append("")
        diffs = [("the tracer without the breakdown", "fd_hooks_nobd", "none"),
                 ("the breakdown", "fd_hooks_bd", "fd_hooks_nobd"),
                 ("both", "fd_hooks_bd", "none")]
        rows = [(n_, a, b) for n_, a, b in diffs if a in sw and b in sw]
        if rows:
            out.append("| added per context switch | difference | instructions "
                       "| % of none |")
            out.append("|---|---|---:|---:|")
            for name, a, b in rows:
                d = sw[a][0] - sw[b][0]
                pct = f"{100 * d / none:+.1f}" if none else "-"
                out.append(f"| {name} | {a} − {b} | {d:+.0f} | {pct} |")
            out.append("")
        out.append("```")
        for m in SWITCH_MODES:
            if m in sw:
                out.append(f"bench switch {m} {sw[m][0]:.1f}")
        if vnone:
            out.append(f"bench-vanilla switch none {vnone[0]:.1f}")
        out.append("```")
        out.append("")


def main_tables(out, icount, vanilla, last, last_of, level="##", only=WORKLOADS):
    """Per workload: every mode, series and vanilla side by side; the last
    column is last_of(workload, mode), headed last."""
    for w in only:
        rows = [m for m in MODES if (w, m) in icount or (w, m) in vanilla]
        if not rows or (w, "nop") not in icount:
            continue
        calls = icount[(w, "nop")][2]
        out.append(f"{level} {w} ({calls} traced calls per run)")
        out.append("")
        out.append("| mode | series | vanilla | × vanilla (same mode) | "
                   f"× vanilla function_graph | × vanilla graph_thresh | {last} |")
        out.append("|---|---:|---:|---:|---:|---:|---:|")
        g = vanilla.get((w, "function_graph"), (None,))[0]
        gt = vanilla.get((w, "graph_thresh"), (None,))[0]
        for m in rows:
            a = icount.get((w, m), (None,))[0]
            b = vanilla.get((w, m), (None,))[0]
            if m == "nop":
                out.append(f"| {LABEL[m]} | 0 (run: {icount[(w, m)][1]}) | "
                           f"0 (run: {vanilla.get((w, m), (0, '-'))[1]}) | | | | |")
                continue
            out.append(f"| {LABEL[m]} | {fmt(a)} | {fmt(b)} | {fmt(ratio(a, b), 3)} | "
                       f"{fmt(ratio(a, g), 2)} | {fmt(ratio(a, gt), 2)} | "
                       f"{last_of(w, m)} |")
        out.append("")


def other_boots(out, icount, paths, title, text, last):
    """The main tables once more from another pair of icount boots."""
    paths = [p for p in paths if os.path.exists(p)]
    if not paths:
        return
    other, _, _ = parse(paths[0])
    vother = parse(paths[1])[0] if len(paths) > 1 else {}
    out.append(f"## The main tables {title}")
    out.append("")
    out.append(text)
    out.append("")
    vuln = [v for v in vulnerabilities(paths[0]) if not v.endswith("Not affected")]
    if vuln:
        out.append("In force (every other entry: Not affected): " + "; ".join(vuln) + ".")
        out.append("")

    def over_main(w, m):
        a, b = other.get((w, m), (None,))[0], icount.get((w, m), (None,))[0]
        return fmt(ratio(a, b), 3)
    main_tables(out, other, vother, last, over_main,
                level="###", only=("syscall", "nested"))


def streaming(out, streams):
    if not streams:
        return
    out.append("## Streaming: trace-cmd record, every function, every call an event")
    out.append("")
    out.append("The system workload with no filter, function_duration at "
               "threshold 0 (stats off) and function_graph, recorded by "
               "`trace-cmd record` with its default buffer, then with larger "
               "buffers (`-b`, per CPU) up to the first that loses nothing: "
               "the events the tracer wrote per guest second (icount: 10⁹ "
               "instructions), those trace-cmd read, and those lost "
               "(overwritten or dropped).")
    out.append("")
    out.append("| kernel | tracer | buffer per CPU | guest ms | events written "
               "| written per guest s | read (kept) | read per guest s | lost | lost % |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    lossless = {}
    for kern, t, ns, w, r, lost in streams:
        tracer, _, kb = t.partition("@")
        size = f"{int(kb) // 1024} MB" if kb else "default"
        sec = ns / 1e9 if ns > 0 else 0
        w_s = w / sec if sec else 0
        r_s = r / sec if sec else 0
        pct = 100.0 * lost / w if w else 0
        if lost == 0 and (kern, tracer) not in lossless:
            lossless[(kern, tracer)] = size
        out.append(f"| {kern} | {tracer} | {size} | {ns / 1e6:.0f} | {w} | {w_s:,.0f} | "
                   f"{r} | {r_s:,.0f} | {lost} | {pct:.1f} |")
    out.append("")
    out.append("function_graph writes two events per call (entry and exit), "
               "function_duration one. The smallest buffer that lost nothing: " +
               ("; ".join(f"{k} {t}: {s}" for (k, t), s in lossless.items())
                or "none of those tried") + ".")
    out.append("")


def main():
    icount, mem, notes = parse(sys.argv[1])
    tcg, _, _ = (parse(sys.argv[2]) if len(sys.argv) > 2 and os.path.exists(sys.argv[2])
                 else ({}, [], []))
    vanilla, _, vnotes = ({}, [], [])
    if len(sys.argv) > 3 and os.path.exists(sys.argv[3]):
        vanilla, _, vnotes = parse(sys.argv[3])
    # The unpatched base has no function_duration statistics to count the
    # system workload's calls: its runs are divided by the series' count
    # (the same workload, the same traced functions).
    calls = icount.get(("system", "nop"), (0, 0, 0))[2]
    vnop = vanilla.get(("system", "nop"))
    if calls and vnop:
        for (w, m), (v, run, c) in list(vanilla.items()):
            if w == "system" and not c:
                vanilla[(w, m)] = ((run - vnop[1]) / calls, run, calls)
    out = ["# make bench", ""]
    out.append("Cost per traced call, in instructions (QEMU `-icount shift=0`: "
               "one guest ns per instruction), median of 3 runs after a warm-up, "
               "minus the untraced run (nop), on the bench kernel "
               "(harness/config/bench.config: Debian's 7.3 options on the hot "
               "path). Vanilla is the unpatched 7.3 base with the same config, "
               "in the same `make bench`; every ratio is against vanilla. The "
               "TCG column is guest ns per call under plain TCG: wall-clock, "
               "for reference only.")
    out.append("")
    vuln = vulnerabilities(sys.argv[1])
    if vuln:
        out.append("Mitigations in force in the guest "
                   "(/sys/devices/system/cpu/vulnerabilities, bench kernel): " +
                   "; ".join(vuln) + ".")
        out.append("")
    main_tables(out, icount, vanilla, "TCG ns/call",
                lambda w, m: fmt((tcg.get((w, m)) or (None,))[0]))
    all_streams = (streams(sys.argv[1], "series") +
                   (streams(sys.argv[3], "vanilla") if len(sys.argv) > 3 else []))
    targets(out, icount, vanilla, all_streams)
    floor(out, icount)
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
    breakdown(out, icount, vanilla)
    streaming(out, all_streams)
    other_boots(out, icount, sys.argv[4:6], "with mitigations=off",
                "The same kernels booted with `mitigations=off` (icount), "
                "syscall and nested workloads. The last column is the series' "
                "figure with mitigations off over its figure with them on "
                "(the tables above).", "off ÷ on (series)")
    model = sys.argv[8] if len(sys.argv) > 8 else ""
    other_boots(out, icount, sys.argv[6:8] if model else [],
                f"on QEMU's {model} CPU model",
                f"The same kernels on QEMU's `-cpu {model}` (icount), which "
                "the kernel mitigates as the real processor: QEMU's default "
                "CPU model, in the tables above, says it is not affected by "
                "the return-based issues (retbleed, SRSO), so only retpolines "
                "are in force there. Syscall and nested workloads. The last "
                "column is the series' figure on this model over its figure "
                "on the default one. Instructions only: what the mitigations "
                "cost in cycles on the real processor (return thunks, "
                "mispredictions) icount does not see.",
                f"{model} ÷ default (series)")
    users(out, icount, vanilla)
    ring_buffer_benchmark(out, rb_writes(sys.argv[1]),
                          rb_writes(sys.argv[3]) if len(sys.argv) > 3 else None)
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
    for n in vnotes:
        out.append(f"- vanilla: {n}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
