import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import Foundation

/// Batches: the draft sent many times (`send --repeat 100 -c 10`), through the library's
/// scheduled batch, each request exactly what one `send` of the draft would carry.
extension Executor {
    /// Sends the draft on the plan `options` describe and returns the batch's summary, kept in
    /// the history as one entry. Ctrl-C ends it and keeps what arrived.
    ///
    /// Request 0 is prepared (and checked against the description) before anything is sent, so
    /// a draft that cannot be sent fails as one `send` would. Each later request is prepared
    /// anew only when request 0 used something of its own (`{{$i}}`, `{{$uuid}}`,
    /// `{{$random.int 1 6}}`, a data row's `{{column}}`); otherwise one request serves all.
    /// `graphQL`: the operation every request carries, checked (once) by its API's schema
    /// instead of an OpenAPI description.
    func sendBatch(
        _ draft: Draft, options: BatchOptions, graphQL: GraphQLOperation? = nil
    ) async throws -> CommandResult {
        let table = try options.data.map { try dataTable($0) }
        let plan = options.plan(rows: table?.rows.count)
        func values(_ index: Int) -> RequestValues {
            RequestValues(index: index, row: table.map { $0.row(index % $0.rows.count) } ?? [:])
        }
        let first = values(0)
        var outgoing = try Variables.$request.withValue(first) { try prepare(draft) }
        outgoing.graphQL = graphQL
        let perRequest = first.used.load(ordering: .relaxed)
        let problems = try await checkBeforeSending(outgoing)
        // A connection for each request in flight.
        clients.want(connections: plan.maxConcurrent)
        let client = try await client(for: outgoing.scope)
        var tally = BatchTally(
            volatile: session.volatile.compactMap { try? JSONPath($0) }, fromSchedule: options.rate != nil)
        // A closed model's connections are opened before its clock starts; a rate's as its
        // schedule needs them (opening 256 for a slow rate would be a burst of its own).
        if options.rate == nil { await client.openConnections(for: outgoing.request, plan: plan) }
        feeds.progress.start(total: plan.count)
        defer { feeds.progress.finish() }
        let start = ContinuousClock.now
        let end = await client.send(plan) { index in
            guard index > 0, perRequest else { return outgoing.request }
            let next = try Variables.$request.withValue(values(index)) { try prepare(draft) }
            // A row may not take the batch's credentials to another API.
            guard outgoing.scope.covers(next.scope.origin) else {
                throw CommandError(
                    .session, "request \(index) goes to \(next.scope.origin), not \(outgoing.scope.origin)",
                    hint: "a batch sends to one origin: its credentials belong to that API")
            }
            return next.request
        } handle: { done in
            tally.add(done)
            feeds.progress.update(done: tally.completed, errors: tally.errorCount)
        }
        let elapsed = ContinuousClock.now - start
        // Read before the history is appended to: the summary is made inside that access.
        // Requests that differ are named by the target as written (`/users/{{$i}}`).
        let shown = perRequest ? outgoing.target : shownPath(outgoing.request.url)
        let summary = record.responses.append { number in
            BatchSummary(
                number: number, method: outgoing.request.method.rawValue, shownPath: shown, options: options, end: end,
                elapsed: elapsed, tally: tally)
        }
        for bodyClass in summary.classes { recordCoverage(bodyClass.response) }
        var outputs = problems.map { Output.event(.requestWarning($0)) }
        if outgoing.scope.api == nil, let notice = noticeOtherOrigin(outgoing.scope.origin) {
            outputs.append(.event(notice))
        }
        outputs.append(.batch(summary))
        // Like a request that got no response, a batch none of whose requests got one failed:
        // its summary is kept and shown, and the line says why, once.
        if summary.statuses.isEmpty, let first = summary.errors.first?.first {
            outputs.append(.failure(Failure(.network(first))))
            return CommandResult(.failed, outputs)
        }
        return CommandResult(.succeeded, outputs)
    }

    /// The data file of `--data FILE`, its name expanded and resolved beside the running file.
    func dataTable(_ written: String) throws -> CSVTable {
        let path = resolvePath(try session.variables.expand(written))
        let text: String
        do {
            if let problem = BoundedFile.problem(path, limit: BoundedFile.rows, what: "a --data file") {
                throw CommandError(.session, problem)
            }
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(
                .session,
                FileManager.default.fileExists(atPath: path)
                    ? "cannot read \(written) as UTF-8 text" : "no file \(written)",
                hint: "--data takes a CSV file whose first row names the columns")
        }
        return try CSVTable(parsing: text, source: written)
    }
}
