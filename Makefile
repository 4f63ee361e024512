# SPDX-License-Identifier: GPL-2.0
# The function_duration series for Linux 7.3: build, boot and test it.
# Every target installs its own dependencies (harness/deps.sh) first.
# See README.md.

H := harness

.PHONY: all run check check-arch torture bench shell series deb deps vanilla-baseline harness-selftest clean help

all: help

help:
	@echo "make run      build the production-like kernel, boot it, demo the tracer"
	@echo "make check    build the check kernel and run every test (TESTS=... for some)"
	@echo "make check-arch  the check kernel cross-built, booted and tested on arm64 and"
	@echo "              32-bit ARM (ARCHES=arm64 or arm for one)"
	@echo "make torture  only the torture phase of make check (ITERS=n iterations)"
	@echo "make bench    per-call cost of function_duration and the other tracers (QEMU icount)"
	@echo "make shell    boot the production-like kernel with a shell, tracefs mounted"
	@echo "make series   export the series with git format-patch, git am it, checkpatch"
	@echo "              (EACH=1: then build the kernel after every patch in turn)"
	@echo "make deb     the series as Debian kernel packages for a real machine, and funcdur"
	@echo "              (CONFIG=file; default: the running kernel's config)"
	@echo "make harness-selftest  prove make check fails on a failing test and a WARN, and boots under early NMIs"
	@echo "make clean    remove out/ (the build directory)"

deps:
	@$(H)/deps.sh

run: deps
	@$(H)/run.sh

check: deps
	@TESTS="$(TESTS)" VANILLA="$(VANILLA)" TORTURE_ITERS="$(ITERS)" $(H)/check.sh

# Not part of make check (CI's command): see harness/README.md, "Other architectures".
check-arch: deps
	@ARCHES="$(ARCHES)" TESTS="$(TESTS)" $(H)/check-arch.sh

# The torture phase alone (KASAN kernel, faults, torture loop, kmemleak);
# ITERS=n for a longer run than make check's.
# FAULTS_DENSE=100000 scans every fault injection point (hours).
torture: deps
	@TESTS=torture TORTURE_ITERS="$(ITERS)" TORTURE_SEED="$(SEED)" \
		FAULTS_DENSE="$(FAULTS_DENSE)" FAULTS_SAMPLES="$(FAULTS_SAMPLES)" \
		FAULTS_TAIL="$(FAULTS_TAIL)" TORTURE_TIMEOUT=$(or $(TIMEOUT),1800) \
		$(H)/check.sh

shell: deps
	@$(H)/build.sh prod && $(H)/initramfs.sh prod && \
		INTERACTIVE=1 RUN=shell $(H)/boot.sh prod $(H)/guest/shell.sh

bench:
	@$(H)/deps.sh bench && $(H)/bench.sh

series: deps
	@$(H)/series.sh $(if $(EACH),&& $(H)/series-build.sh)

# Debian packages of the series (bindeb-pkg) and funcdur, for a real
# machine: see README.md, "On a real machine". Not part of make check.
deb:
	@$(H)/deps.sh deb && CONFIG="$(CONFIG)" $(H)/deb.sh

# Prove that make check fails on a failing test and on a kernel WARN.
harness-selftest: deps
	@$(H)/harness-selftest.sh

# Re-measure harness/upstream-baseline-7.3.txt on the unpatched base.
vanilla-baseline: deps
	@$(H)/vanilla-baseline.sh

clean:
	rm -rf out
