#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hand funcdur's exports, made in the guest, to the programs that read them.

The guest's tests leave files in /tmp/harness-exports; its ftracetest.sh
prints them, gzip then base64, between "HARNESS: EXPORT <name>" and "HARNESS:
EXPORT END" lines of the script's output. This script takes them out of
that log into a directory and checks each with its real consumer, on the
host, on loopback only:

  *.folded speedscope (npm) in headless Chromium imports it as folded
           ("collapsed") stacks, and each frame's total and self weight
           in its Sandwich view must be those of <name>.expect
           ("frame<TAB>total<TAB>self", "-" for either to skip); a
           screenshot of its view is left beside the file.
  *.json   a Chrome trace: speedscope must import it as the Trace Event
           Format, and the durations of a frame's calls (the frames of
           that name, whatever their args) add up to <name>.expect's
           total ("frame<TAB>total_ns"), within the 1 % of speedscope's
           rounded times; a screenshot is left beside it.
  *.prom   promtool check metrics (Debian's prometheus); then node_exporter's
           textfile collector reads it and a Prometheus scrapes that
           node_exporter, and each PromQL query of <name>.expect
           ("query<TAB>value" lines, written by the guest from the
           instance's statistics) must answer that value.

The consumers are Debian's packages, downloaded and unpacked under
--tools, never installed. Prints "PASS|FAIL exports: ..." lines, also
appended to --results (exports: is --phase).
"""

import argparse
import base64
import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

PACKAGES = ["prometheus", "prometheus-node-exporter"]
# speedscope, and what drives Debian's Chromium (deps.sh) to load it
NPM = ["speedscope@1.25.0", "playwright-core@1.65.2"]
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def extract(log, dest):
    files, name, chunks = {}, None, []
    with open(log, errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            if line.startswith("HARNESS: EXPORT END"):
                if name:
                    files[name] = gzip.decompress(base64.b64decode("".join(chunks)))
                name = None
            elif line.startswith("HARNESS: EXPORT "):
                name, chunks = os.path.basename(line.split(" ", 2)[2]), []
            elif name:
                chunks.append(line.strip())
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for n, data in files.items():
        with open(os.path.join(dest, n), "wb") as f:
            f.write(data)
    return sorted(files)


def fetch_npm(tools):
    """speedscope and playwright-core, installed under tools/npm."""
    prefix = os.path.join(tools, "npm")
    modules = os.path.join(prefix, "node_modules")
    if all(os.path.isdir(os.path.join(modules, p.rsplit("@", 1)[0])) for p in NPM):
        return modules
    os.makedirs(prefix, exist_ok=True)
    subprocess.run(["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund",
                    "--silent"] + NPM, check=True)
    return modules


def fetch_tools(tools):
    """Debian's packages, unpacked under tools/root: the programs' paths."""
    root = os.path.join(tools, "root")
    bins = {"promtool": "usr/bin/promtool", "prometheus": "usr/bin/prometheus",
            "node_exporter": "usr/bin/prometheus-node-exporter"}
    paths = {k: os.path.join(root, v) for k, v in bins.items()}
    if all(os.access(p, os.X_OK) for p in paths.values()):
        return paths
    debs = os.path.join(tools, "debs")
    shutil.rmtree(debs, ignore_errors=True)
    os.makedirs(debs)
    get = ["apt-get", "-q", "download"] + PACKAGES
    if subprocess.run(get, cwd=debs, stdout=subprocess.DEVNULL).returncode:
        # a machine whose package lists were never fetched
        subprocess.run(["apt-get", "-qq", "update"], check=True)
        subprocess.run(get, cwd=debs, check=True, stdout=subprocess.DEVNULL)
    for deb in os.listdir(debs):
        subprocess.run(["dpkg-deb", "-x", os.path.join(debs, deb), root], check=True)
    return paths


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Results:
    def __init__(self, path, phase):
        self.path, self.phase, self.failed = path, phase, 0

    def add(self, ok, what, detail=""):
        line = "%s %s: %s%s" % ("PASS" if ok else "FAIL", self.phase, what,
                                " -- " + detail if detail else "")
        print(line, flush=True)
        if not ok:
            self.failed += 1
        if self.path:
            with open(self.path, "a") as f:
                f.write(line + "\n")


def query(port, expr):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (
        port, urllib.parse.urlencode({"query": expr}))
    with urllib.request.urlopen(url, timeout=10) as r:
        data = json.load(r)
    return [(s["metric"], s["value"][1]) for s in data["data"]["result"]]


def check_prometheus(res, tools, work, prom, expect):
    """node_exporter's textfile collector reads @prom, Prometheus scrapes it."""
    name = os.path.basename(prom)
    textdir = os.path.join(work, "textfile")
    os.makedirs(textdir)
    shutil.copy(prom, textdir)
    nport, pport = free_port(), free_port()
    with open(os.path.join(work, "prometheus.yml"), "w") as f:
        f.write("global:\n  scrape_interval: 1s\n"
                "scrape_configs:\n  - job_name: funcdur\n"
                "    static_configs:\n      - targets: ['127.0.0.1:%d']\n" % nport)
    log = open(os.path.join(work, "servers.log"), "w")
    procs = [
        subprocess.Popen([tools["node_exporter"], "--web.listen-address=127.0.0.1:%d" % nport,
                          "--collector.disable-defaults", "--collector.textfile",
                          "--collector.textfile.directory=" + textdir],
                         stdout=log, stderr=subprocess.STDOUT),
        subprocess.Popen([tools["prometheus"], "--config.file=" + os.path.join(work, "prometheus.yml"),
                          "--storage.tsdb.path=" + os.path.join(work, "tsdb"),
                          "--web.listen-address=127.0.0.1:%d" % pport],
                         stdout=log, stderr=subprocess.STDOUT),
    ]
    try:
        # scraped once the node_exporter's own series is there
        deadline, errors = time.time() + 90, None
        while time.time() < deadline:
            try:
                errors = query(pport, "node_textfile_scrape_error")
                if errors and query(pport, "funcdur_calls_total"):
                    break
            except OSError:
                pass
            time.sleep(1)
        else:
            res.add(False, name + ": scraped by Prometheus",
                    "no funcdur series after 90 s (see %s)" % log.name)
            return
        res.add(errors[0][1] == "0", name + ": read by node_exporter's textfile collector",
                "node_textfile_scrape_error %s" % errors[0][1])
        with open(expect) as f:
            for line in f:
                if not line.strip():
                    continue
                expr, want = line.rstrip("\n").split("\t")
                got = query(pport, expr)
                vals = [v for _, v in got]
                res.add(vals == [want], name + ": Prometheus: " + expr,
                        "answered %s, the instance's statistics say %s" % (vals, want))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait()
        log.close()


UNITS = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9, "hr": 3600e9}


def time_ns(text):
    """speedscope's rounded time ("11.50µs") in ns."""
    for unit in sorted(UNITS, key=len, reverse=True):
        if text.endswith(unit):
            return float(text[:-len(unit)].replace(",", "")) * UNITS[unit]
    raise ValueError("not a time: " + text)


def check_speedscope(res, tools, path, expect):
    name = os.path.basename(path)
    chrome = name.endswith(".json")
    shot = path + ".png"
    p = subprocess.run(["node", os.path.join(TOP, "harness", "speedscope.mjs"),
                        fetch_npm(tools), path, shot],
                       capture_output=True, text=True, timeout=180)
    try:
        got = json.loads(p.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        res.add(False, name + ": loaded by speedscope", (p.stdout + p.stderr)[-500:])
        return
    want = "Trace Event Format profile" if chrome else "collapsed stack format"
    res.add(got["importer"] == want and not got["errors"],
            name + ": imported by speedscope as " + want,
            "importer %s, errors %s, %d frames" % (got["importer"], got["errors"],
                                                   len(got["rows"])))
    rows = {r["name"]: r for r in got["rows"]}
    with open(expect) as f:
        for line in f:
            if not line.strip():
                continue
            if chrome:
                frame, total = line.rstrip("\n").split("\t")
                mine = [r for r in got["rows"] if r["name"] == frame or
                        r["name"].startswith(frame + " {")]
                sum_ns = sum(time_ns(r["total"]) for r in mine)
                res.add(mine and abs(sum_ns - int(total)) <= 0.01 * int(total),
                        "%s: speedscope: %s" % (name, frame),
                        "%d frames of that name, %d ns in all; expected %s ns" % (
                            len(mine), sum_ns, total))
                continue
            frame, total, self_ = line.rstrip("\n").split("\t")
            r = rows.get(frame)
            ok = r is not None and (total == "-" or r["total"] == int(total)) and \
                (self_ == "-" or r["self"] == int(self_))
            res.add(ok, "%s: speedscope: %s" % (name, frame),
                    "total %s self %s; expected total %s self %s" % (
                        r and r["total"], r and r["self"], total, self_))


def check(res, args):
    names = extract(args.log, args.dir)
    for n in args.require:
        if n not in names:
            res.add(False, n, "not exported by the guest (its test failed or did not run)")
    if not names:
        return
    tools = fetch_tools(args.tools)
    for n in names:
        path = os.path.join(args.dir, n)
        if n.endswith(".folded") or n.endswith(".json"):
            expect = path + ".expect"
            if not os.path.exists(expect):
                res.add(False, n, "no " + os.path.basename(expect))
                continue
            check_speedscope(res, args.tools, path, expect)
        if n.endswith(".prom"):
            p = subprocess.run([tools["promtool"], "check", "metrics"], stdin=open(path),
                               capture_output=True, text=True)
            res.add(p.returncode == 0, n + ": promtool check metrics",
                    (p.stdout + p.stderr).strip().replace("\n", "; "))
            expect = path + ".expect"
            if not os.path.exists(expect):
                res.add(False, n, "no " + os.path.basename(expect))
                continue
            work = path + ".prometheus"
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            check_prometheus(res, tools, work, path, expect)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True, help="the guest script's output")
    ap.add_argument("--dir", required=True, help="where to put the files")
    ap.add_argument("--tools", required=True, help="where the consumers are unpacked")
    ap.add_argument("--results", help="append the results there")
    ap.add_argument("--phase", default="exports", help="the results' phase name")
    ap.add_argument("--require", action="append", default=[],
                    help="a file the guest must have exported")
    args = ap.parse_args()

    res = Results(args.results, args.phase)
    try:
        check(res, args)
    except Exception as e:  # a harness error is a failure, with its reason
        res.add(False, "harness", "%s: %s" % (type(e).__name__, e))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
