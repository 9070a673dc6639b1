import Foundation
import Synchronization

/// A console that keeps what is written, in order, until it is replayed to another: a file run
/// beside others (`replay --jobs`) prints through one, so that its report comes out whole.
final class BufferedConsole: Console, Sendable {
    private enum Chunk {
        case output(String)
        case error(String)
    }

    private let chunks = Mutex<[Chunk]>([])

    func write(_ text: String) { chunks.withLock { $0.append(.output(text)) } }

    func writeError(_ text: String) { chunks.withLock { $0.append(.error(text)) } }

    /// Nobody is at a buffer: secrets were asked for before the files ran.
    var isInteractive: Bool { false }

    /// Writes what was kept to `console`, standard output and error each to its own, in order.
    func replay(to console: any Console) {
        for chunk in chunks.withLock({ $0 }) {
            switch chunk {
            case .output(let text): console.write(text)
            case .error(let text): console.writeError(text)
            }
        }
    }
}
