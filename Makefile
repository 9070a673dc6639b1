# The two commands a newcomer needs are `make run` and `make test`; the rest serve development.
SWIFT ?= swift

.PHONY: run test deps lint format bench-client bench-json bench-repl bench-replay bench-soak bench-import bench-openapi bench-hostile fuzz clean help

help:
	@echo "make run           build in release mode and start Fathom against its demo API"
	@echo "make test          install what the tests need and run them"
	@echo "make lint          check formatting with the checked-in .swift-format"
	@echo "make bench-client  1,000 GETs through NetworkClient vs curl, side by side"
	@echo "make bench-json    fathom fmt/query/diff vs jq on ~10 MB and ~100 MB documents"
	@echo "make bench-repl    start-up, one-shot GET and a 1,000-line script vs curl"
	@echo "make bench-replay  fathom replay of a 1,000-request file vs curl; peak memory"
	@echo "make bench-soak    10,000 requests at one prompt (a pty) over a 10,000-line history: time and memory per 1,000"
	@echo "make bench-import  fathom import of a generated 50 MB HAR: time and peak memory"
	@echo "make bench-openapi large descriptions (Twilio's, GitHub-size, 3,000 files) vs openapi-spec-validator; Twilio in-process: completion, a 1 MB response"
	@echo "make bench-hostile hostile input timed and weighed: huge imports, an alias bomb, 2 GiB uploads"
	@echo "make fuzz          libFuzzer on every parser (JSON, JSONPath, commands, session files, OpenAPI, JSON Schema), FUZZ_SECONDS each"

deps:
	@scripts/install-deps.sh build

run: deps
	$(SWIFT) build -c release --product fathom
	.build/release/fathom --demo

test:
	@scripts/install-deps.sh test
	$(SWIFT) build --build-tests
	@# End-to-end tests wait on child processes from the cooperative pool's threads; run apart,
	@# they cannot starve the timing-sensitive library tests of those threads.
	$(SWIFT) test --skip-build --skip FathomEndToEndTests
	scripts/with-httpbin.sh $(SWIFT) test --skip-build --filter FathomEndToEndTests

lint:
	$(SWIFT) format lint --strict -r Sources Tests Benchmarks Fuzz/Sources Fuzz/Package.swift Package.swift

format:
	$(SWIFT) format format -i -r Sources Tests Benchmarks Fuzz/Sources Fuzz/Package.swift Package.swift

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

bench-hostile: deps
	Benchmarks/hostile.sh

bench-soak: deps
	$(SWIFT) build -c release --static-swift-stdlib --product fathom
	Benchmarks/soak.py .build/release/fathom 10000

fuzz: deps
	scripts/fuzz.sh

clean:
	rm -rf .build .build-*
