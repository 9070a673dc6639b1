# The two commands a newcomer needs are `make run` and `make test`; the rest serve development.
SWIFT ?= swift

.PHONY: run test deps lint format install uninstall dist stage docs bench-client bench-json bench-repl bench-replay bench-soak bench-import bench-openapi bench-graphql bench-grpc bench-hostile bench-batch bench-stream fuzz clean help

help:
	@echo "make run           build in release mode and start Fathom against its demo API"
	@echo "make install       install fathom, its completions and man page under PREFIX (/usr/local); DESTDIR honoured"
	@echo "make uninstall     remove what make install put there"
	@echo "make dist          dist/fathom-VERSION-linux-ARCH.tar.gz of the same files, with its SHA-256 sum"
	@echo "make test          install what the tests need and run them"
	@echo "make lint          check formatting with the checked-in .swift-format"
	@echo "make docs          FathomHTTP's and FathomGraphQL's DocC documentation, warnings as errors"
	@echo "make bench-client  1,000 GETs through NetworkClient vs curl, side by side"
	@echo "make bench-json    fathom fmt/query/diff vs jq on ~10 MB and ~100 MB documents"
	@echo "make bench-repl    start-up, one-shot GET and a 1,000-line script vs curl"
	@echo "make bench-replay  fathom replay of a 1,000-request file vs curl; peak memory"
	@echo "make bench-soak    10,000 requests at one prompt (a pty) over a 10,000-line history: time and memory per 1,000"
	@echo "make bench-import  fathom import of a generated 50 MB HAR: time and peak memory"
	@echo "make bench-openapi large descriptions (Twilio's, GitHub-size, 3,000 files) vs openapi-spec-validator; Twilio in-process: completion, a 1 MB response"
	@echo "make bench-graphql a GitHub-size schema: usable after graphql --schema, validation of a 12 KB operation, Tab; vs graphql-core"
	@echo "make bench-grpc    unary gRPC calls per second at -c 64 against the demo, beside the HTTP batch and grpcio; peak memory"
	@echo "make bench-hostile hostile input timed and weighed: huge imports, an alias bomb, 2 GiB uploads"
	@echo "make bench-batch   get --repeat 200000 -c 64 vs wrk and hey -c 64 on one server; tail latency vs hey; memory; --repeat 1000 vs curl"
	@echo "make bench-stream  stream events and WebSocket messages rendered per second; latency to print; WebSocket round trips"
	@echo "make fuzz          libFuzzer on every parser (JSON, JSONPath, commands, session files, OpenAPI, JSON Schema, GraphQL, protobuf), FUZZ_SECONDS each"

deps:
	@scripts/install-deps.sh build

# Where `make install` puts Fathom: $(DESTDIR)$(PREFIX)/bin/fathom and its completions and manual
# under $(DESTDIR)$(PREFIX)/share. The binary has the Swift standard library linked in, so it runs
# where Swift is not installed (it needs only libedit, zlib, libc and the like).
PREFIX ?= /usr/local
DESTDIR ?=
# The build folder: the install test builds in its own, since `swift test` holds .build's lock.
SCRATCH ?= .build
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)"/\1/p' Sources/FathomREPL/Execution/FathomVersion.swift)
STAGE = $(SCRATCH)/install-stage
INSTALLED := bin/fathom share/man/man1/fathom.1 share/bash-completion/completions/fathom \
	share/zsh/site-functions/_fathom share/fish/vendor_completions.d/fathom.fish

# How the release binary is built, here and by the benchmarks (they read the same file): Swift's
# libraries linked in, and concrete types' metadata reached through their accessors rather than by
# mangled name, so that the runtime does not check those types' generic requirements at start by
# scanning all 14,600 protocol conformances in the binary, a third fewer scans for a one-shot GET.
RELEASE := $(shell cat scripts/release-build-flags)

# The installed tree, staged: the release binary, completions from swift-argument-parser, the manual.
stage: deps
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --product fathom
	rm -rf $(STAGE)
	mkdir -p $(STAGE)/bin $(STAGE)/share/man/man1 $(STAGE)/share/bash-completion/completions \
		$(STAGE)/share/zsh/site-functions $(STAGE)/share/fish/vendor_completions.d
	install -s -m 755 \
		"$$($(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --show-bin-path)/fathom" \
		$(STAGE)/bin/fathom
	$(STAGE)/bin/fathom --generate-completion-script bash >$(STAGE)/share/bash-completion/completions/fathom
	$(STAGE)/bin/fathom --generate-completion-script zsh >$(STAGE)/share/zsh/site-functions/_fathom
	$(STAGE)/bin/fathom --generate-completion-script fish >$(STAGE)/share/fish/vendor_completions.d/fathom.fish
	SWIFT=$(SWIFT) SCRATCH=$(SCRATCH) scripts/manual.sh $(STAGE)/bin/fathom $(STAGE)/share/man/man1/fathom.1

install: stage
	for file in $(INSTALLED); do install -D -m "$$([ "$$file" = bin/fathom ] && echo 755 || echo 644)" \
		"$(STAGE)/$$file" "$(DESTDIR)$(PREFIX)/$$file" || exit 1; done

uninstall:
	for file in $(INSTALLED); do rm -f "$(DESTDIR)$(PREFIX)/$$file"; done

# dist/fathom-VERSION-linux-ARCH.tar.gz of the installed tree, and its SHA-256 sum beside it.
dist: stage
	mkdir -p dist
	tar -C $(STAGE) --owner=0 --group=0 --sort=name \
		--transform 's,^\.,fathom-$(VERSION),' -czf dist/fathom-$(VERSION)-linux-$$(uname -m).tar.gz .
	cd dist && sha256sum fathom-$(VERSION)-linux-$$(uname -m).tar.gz >fathom-$(VERSION)-linux-$$(uname -m).tar.gz.sha256
	@echo "dist/fathom-$(VERSION)-linux-$$(uname -m).tar.gz"

run: deps
	$(SWIFT) build -c release --product fathom
	.build/release/fathom --demo

# Suites whose tests assert a wait ends within a bound (timeouts, linear-time readers).
TIMED_SUITES = FathomHTTPIntegrationTests|WebSocketCommandTests|HostileInputRoundThreeTests|ScheduledBatchTests|NetworkTaskTests
# End-to-end suites that call a server from the test process itself, through async clients.
ASYNC_END_TO_END_SUITES = GRPCClientTests

test:
	@scripts/install-deps.sh test
	$(SWIFT) build --build-tests
	@# End-to-end tests wait on child processes from the cooperative pool's threads, and the CPU-bound
	@# unit tests (jq differential, 3,000-file descriptions) fill both of its threads for ~20 s; the
	@# suites that bound a wait in wall-clock time run apart from both, or a 300 ms timer's
	@# continuation queues behind them (CI saw 33 s).
	$(SWIFT) test --skip-build --skip 'FathomEndToEndTests|$(TIMED_SUITES)'
	$(SWIFT) test --skip-build --filter '$(TIMED_SUITES)'
	scripts/with-httpbin.sh $(SWIFT) test --skip-build --filter FathomEndToEndTests \
		--skip 'InstallTests|LibraryAsADependencyTests|$(ASYNC_END_TO_END_SUITES)'
	@# In-process async clients against Python servers, apart: the end-to-end suites block the
	@# cooperative pool's threads while they wait on the binary, and an RPC's continuation behind
	@# them meets its deadline first (CI saw every call time out).
	scripts/with-httpbin.sh $(SWIFT) test --skip-build --filter '$(ASYNC_END_TO_END_SUITES)'
	@# Apart, after the others: these build (a release Fathom, a package that depends on FathomHTTP),
	@# and two cores compiling would starve the timing-sensitive end-to-end tests.
	$(SWIFT) test --skip-build --filter 'InstallTests|LibraryAsADependencyTests'
	@# FathomHTTP's documentation (a DocC catalog and every public symbol's comment) builds warning-free.
	$(MAKE) docs

# FathomHTTP's documentation: .build/plugins/Swift-DocC/outputs/FathomHTTP.doccarchive.
docs:
	$(SWIFT) package generate-documentation --target FathomHTTP --warnings-as-errors
	$(SWIFT) package generate-documentation --target FathomGraphQL --warnings-as-errors
	$(SWIFT) package generate-documentation --target FathomProtobuf --warnings-as-errors
	$(SWIFT) package generate-documentation --target FathomGRPC --warnings-as-errors

lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks Plugins Examples/ReadmeExample/Sources Examples/ReadmeExample/Package.swift Fuzz/Sources Fuzz/Package.swift Package.swift

format:
	$(SWIFT) format format -i -r Sources Tests Benchmarks Plugins Examples/ReadmeExample/Sources Examples/ReadmeExample/Package.swift Fuzz/Sources Fuzz/Package.swift Package.swift

bench-client: deps
	Benchmarks/client-vs-curl.sh

bench-json: deps
	Benchmarks/json-vs-jq.sh

bench-repl: deps
	Benchmarks/repl-vs-curl.sh

bench-replay: deps
	Benchmarks/replay-vs-curl.sh

bench-import: deps
	Benchmarks/import-har.sh 50

bench-openapi: deps
	Benchmarks/openapi.sh
	$(SWIFT) build -c release --product fathom-openapi-bench
	.build/release/fathom-openapi-bench Tests/Corpora/openapi

bench-graphql: deps
	Benchmarks/graphql.sh

bench-grpc: deps
	Benchmarks/grpc.sh

bench-hostile: deps
	Benchmarks/hostile.sh

bench-batch: deps
	@scripts/install-deps.sh bench
	Benchmarks/batch-vs-wrk.sh

bench-stream: deps
	Benchmarks/stream-rate.sh

bench-soak: deps
	$(SWIFT) build $(RELEASE) --product fathom
	Benchmarks/soak.py .build/release/fathom 10000

fuzz: deps
	scripts/fuzz.sh

clean:
	rm -rf .build .build-*
