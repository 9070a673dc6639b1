import Crypto
import Foundation
import Synchronization

/// A WebSocket server on 127.0.0.1 that breaks RFC 6455 on purpose, one way per instance: it
/// never answers a close, sends text that is not UTF-8, masks its frames, picks a subprotocol
/// nobody offered, closes with an invalid code or an overlong reason, answers the upgrade with
/// a wrong accept key, or floods pings before a message. It records the frames the client sends.
public final class RogueWebSocketServer: Sendable {
    public enum Misbehaviour: Sendable {
        /// Says hello, then reads and never answers the client's close frame.
        case neverAnswersClose
        /// Answers the upgrade `401 Unauthorized` unless it carries `Authorization: Bearer TOKEN`,
        /// then greets with "hello".
        case requiresToken(String)
        /// Sends a text message whose bytes are not UTF-8.
        case invalidUTF8
        /// Sends a text message in a masked frame.
        case maskedFrame
        /// Accepts the upgrade choosing this subprotocol, whatever was offered.
        case subprotocol(String)
        /// Closes with this code.
        case closeCode(Int)
        /// Closes with a reason of this many bytes.
        case closeReason(length: Int)
        /// Answers the upgrade with a `Sec-WebSocket-Accept` that does not match the key.
        case wrongAccept
        /// Sends this many pings, then a text message.
        case pingFlood(Int)
        /// Sends this many text messages of 100 bytes as fast as the connection takes them.
        case messageFlood(Int)
    }

    /// A frame the client sent: its opcode and unmasked payload.
    public struct Frame: Sendable {
        public var opcode: UInt8
        public var payload: Data
        /// The close code of a close frame.
        public var closeCode: Int? {
            guard opcode == 0x8, payload.count >= 2 else { return nil }
            return Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
        }
    }

    public var port: Int { listener.withLock { $0?.port ?? 0 } }
    private let misbehaviour: Misbehaviour
    private let received = Mutex<[Frame]>([])
    private let requestHeads = Mutex<[String]>([])
    private let sentMessages = Atomic<Int>(0)
    private let listener = Mutex<LoopbackListener?>(nil)

    public init(_ misbehaviour: Misbehaviour) throws {
        self.misbehaviour = misbehaviour
        let started = try LoopbackListener { [weak self] connection in self?.serve(connection) }
        listener.withLock { $0 = started }
    }

    deinit { stop() }

    public var url: String { "ws://127.0.0.1:\(port)/ws" }

    /// How many messages a flood has handed to the connection so far.
    public var sent: Int { sentMessages.load(ordering: .relaxed) }

    /// The frames the client sent, in order.
    public var frames: [Frame] { received.withLock { $0 } }

    /// The upgrade requests' heads.
    public var requests: [String] { requestHeads.withLock { $0 } }

    public func stop() {
        listener.withLock { $0 }?.stop()
    }

    private func serve(_ connection: Int32) {
        var buffer = Data()
        guard let head = readHead(connection, &buffer) else { return }
        requestHeads.withLock { $0.append(head) }
        let key =
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        var accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
            .base64EncodedString()
        if case .wrongAccept = misbehaviour { accept = "d3JvbmcgYWNjZXB0IGtleSE=" }
        if case .requiresToken(let token) = misbehaviour,
            !head.split(separator: "\r\n").contains(where: { $0.lowercased() == "authorization: bearer \(token)" })
        {
            _ = Sockets.send(
                Data("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), on: connection
            )
            return
        }
        var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        response += "Sec-WebSocket-Accept: \(accept)\r\n"
        if case .subprotocol(let name) = misbehaviour { response += "Sec-WebSocket-Protocol: \(name)\r\n" }
        guard Sockets.send(Data((response + "\r\n").utf8), on: connection) else { return }
        switch misbehaviour {
        case .neverAnswersClose, .subprotocol, .wrongAccept, .requiresToken:
            _ = Sockets.send(Self.frame(0x1, Data("hello".utf8)), on: connection)
        case .invalidUTF8:
            _ = Sockets.send(Self.frame(0x1, Data([0x68, 0xC3, 0x28])), on: connection)
        case .maskedFrame:
            _ = Sockets.send(Self.frame(0x1, Data("masked".utf8), mask: [1, 2, 3, 4]), on: connection)
        case .closeCode(let code):
            _ = Sockets.send(Self.frame(0x8, Data([UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)])), on: connection)
        case .closeReason(let length):
            _ = Sockets.send(
                Self.frame(0x8, Data([0x03, 0xE8]) + Data(repeating: UInt8(ascii: "r"), count: length)), on: connection)
        case .pingFlood(let count):
            var pings = Data()
            for index in 0..<count {
                pings += Self.frame(0x9, Data("p\(index % 10)".utf8))
                if pings.count > 64 * 1024 {
                    guard Sockets.send(pings, on: connection) else { return }
                    pings = Data()
                }
            }
            _ = Sockets.send(pings + Self.frame(0x1, Data(#"{"after":"pings"}"#.utf8)), on: connection)
        case .messageFlood(let count):
            // In batches of 1,000: `send` blocks while the client's window is full.
            for batch in stride(from: 0, to: count, by: 1000) {
                var data = Data()
                for index in batch..<min(count, batch + 1000) {
                    let text = "m\(index)".padding(toLength: 100, withPad: ".", startingAt: 0)
                    data += Self.frame(0x1, Data(text.utf8))
                }
                guard Sockets.send(data, on: connection) else { return }
                sentMessages.add(min(1000, count - batch), ordering: .relaxed)
            }
        }
        // Read the client's frames until it goes; never answer a close.
        while let frame = readFrame(connection, &buffer) {
            received.withLock { $0.append(frame) }
        }
    }

    /// A server frame: unmasked unless `mask` is given.
    static func frame(_ opcode: UInt8, _ payload: Data, mask: [UInt8]? = nil) -> Data {
        var frame = Data([0x80 | opcode])
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame.append(maskBit | 126)
            frame.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        } else {
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(payload.count >> shift & 0xFF)) }
        }
        guard let mask else { return frame + payload }
        frame.append(contentsOf: mask)
        frame.append(contentsOf: payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return frame
    }

    private func fill(_ connection: Int32, _ buffer: inout Data, to count: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            let read = recv(connection, &chunk, chunk.count, 0)
            guard read > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<read])
        }
        return true
    }

    private func readHead(_ connection: Int32, _ buffer: inout Data) -> String? {
        let end = Data("\r\n\r\n".utf8)
        while buffer.range(of: end) == nil {
            guard fill(connection, &buffer, to: buffer.count + 1) else { return nil }
        }
        let range = buffer.range(of: end)!
        let head = String(decoding: buffer[..<range.lowerBound], as: UTF8.self)
        buffer = Data(buffer[range.upperBound...])
        return head
    }

    private func readFrame(_ connection: Int32, _ buffer: inout Data) -> Frame? {
        guard fill(connection, &buffer, to: 2) else { return nil }
        let bytes = [UInt8](buffer)
        let opcode = bytes[0] & 0x0F
        let masked = bytes[1] & 0x80 != 0
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard fill(connection, &buffer, to: 4) else { return nil }
            length = Int(buffer[buffer.startIndex + 2]) << 8 | Int(buffer[buffer.startIndex + 3])
            offset = 4
        } else if length == 127 {
            guard fill(connection, &buffer, to: 10) else { return nil }
            length = (2..<10).reduce(0) { $0 << 8 | Int(buffer[buffer.startIndex + $1]) }
            offset = 10
        }
        let maskLength = masked ? 4 : 0
        guard fill(connection, &buffer, to: offset + maskLength + length) else { return nil }
        let all = [UInt8](buffer)
        let mask = masked ? Array(all[offset..<offset + 4]) : [0, 0, 0, 0]
        let start = offset + maskLength
        let payload = Data(all[start..<start + length].enumerated().map { $0.element ^ mask[$0.offset % 4] })
        buffer = Data(all[(start + length)...])
        return Frame(opcode: opcode, payload: payload)
    }
}
