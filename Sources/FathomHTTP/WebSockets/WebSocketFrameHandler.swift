import Foundation
import NIOCore
import NIOWebSocket

/// Reads a WebSocket conversation's frames on its channel's event loop, as RFC 6455 has a client
/// do: fragments joined into messages, pings answered, the close handshake, and the connection
/// failed — a close frame with the reason's code, then the TCP connection closed — on anything a
/// server must not send: a masked frame (§5.1), a reserved bit or opcode (§5.2), a text message
/// that is not UTF-8 (§8.1, 1007), an invalid close code (§7.4), a message over the limit (1009).
final class WebSocketFrameHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let connection: WebSocketConnection
    private let limit: Int
    private let opened: ContinuousClock.Instant
    /// A message begun and not yet finished: whether it is binary, and its bytes so far.
    private var pending: (binary: Bool, bytes: ByteBuffer)?
    /// The connection was failed (or closed): frames after that are not read.
    private var done = false
    /// The last ping's payload, answered once the frames read together are done: RFC 6455 §5.5.3
    /// lets a flood of pings be answered by one pong for the latest, so pings cannot crowd out
    /// the messages after them.
    private var pongDue: ByteBuffer?

    init(connection: WebSocketConnection, limit: Int, opened: ContinuousClock.Instant) {
        self.connection = connection
        self.limit = limit
        self.opened = opened
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return }
        let frame = unwrapInboundIn(data)
        guard frame.maskKey == nil else {
            return fail(context, .protocolError, "the server sent a masked frame, which RFC 6455 §5.1 forbids")
        }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else {
            return fail(context, .protocolError, "the server set a reserved bit no extension was agreed for")
        }
        switch frame.opcode {
        case .text, .binary:
            guard pending == nil else {
                return fail(context, .protocolError, "the server began a message before the last one ended")
            }
            pending = (frame.opcode == .binary, frame.data)
            received(context, fin: frame.fin)
        case .continuation:
            guard pending != nil else {
                return fail(context, .protocolError, "the server sent a continuation with no message begun")
            }
            var data = frame.data
            pending?.bytes.writeBuffer(&data)
            received(context, fin: frame.fin)
        case .ping:
            pongDue = frame.data
        case .pong:
            break
        case .connectionClose:
            closeReceived(context, frame.data)
        default:
            fail(context, .protocolError, "the server sent a frame of a reserved opcode (\(frame.opcode))")
        }
    }

    /// A data frame arrived: the message is delivered when it is whole, and refused when it grows
    /// past the limit.
    private func received(_ context: ChannelHandlerContext, fin: Bool) {
        guard let message = pending else { return }
        if message.bytes.readableBytes > limit {
            return fail(
                context, .messageTooLarge,
                "a message grew past the limit of \(ByteCount.format(limit)): Fathom closed the connection with 1009")
        }
        guard fin else { return }
        pending = nil
        let bytes = Data(message.bytes.readableBytesView)
        if message.binary {
            connection.deliver(.binary(bytes), at: ContinuousClock.now - opened)
            return
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return fail(context, .dataInconsistentWithMessage, "the server sent a text message that is not UTF-8")
        }
        connection.deliver(.text(text), at: ContinuousClock.now - opened)
    }

    /// The server's close frame: the answer to ours, or its own close.
    ///
    /// Its own close is answered with the same code. Either way the connection ends.
    private func closeReceived(_ context: ChannelHandlerContext, _ payload: ByteBuffer) {
        var payload = payload
        var code: Int?
        var reason: String?
        if payload.readableBytes == 1 {
            return fail(context, .protocolError, "the server's close frame has a one-byte code")
        }
        if let number = payload.readInteger(as: UInt16.self) {
            code = Int(number)
            guard Self.isValidCloseCode(Int(number)) else {
                return fail(
                    context, .protocolError, "the server closed with \(number), which is no valid close code (§7.4)")
            }
            let bytes = Data(payload.readableBytesView)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                return fail(context, .dataInconsistentWithMessage, "the server's close reason is not UTF-8")
            }
            reason = text.isEmpty ? nil : text
        }
        done = true
        if connection.closeReceived(code: code, reason: reason) {
            // The server closed first: echo its code, then end the connection.
            var answer = context.channel.allocator.buffer(capacity: 2)
            if let code { answer.writeInteger(UInt16(code)) }
            let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: answer)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in bound.value.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    /// Fails the connection (RFC 6455 §7.1.7): says why, sends a close frame with `code`, and
    /// closes the TCP connection without waiting for an answer.
    private func fail(_ context: ChannelHandlerContext, _ code: WebSocketErrorCode, _ reason: String) {
        guard !done else { return }
        done = true
        connection.failed(code: WebSocketConnection.number(code), reason: reason)
        var payload = context.channel.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: code)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in bound.value.close(promise: nil) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let payload = pongDue, !done {
            pongDue = nil
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: payload)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let error as NIOWebSocketError:
            // The frame decoder's: a frame no server may send.
            switch error {
            case .invalidFrameLength:
                fail(
                    context, .messageTooLarge,
                    "a frame was larger than the limit of \(ByteCount.format(limit)): Fathom closed the connection with 1009"
                )
            case .fragmentedControlFrame:
                fail(context, .protocolError, "the server fragmented a control frame")
            case .multiByteControlFrameLength:
                fail(
                    context, .protocolError, "the server sent a control frame over 125 bytes (a close reason that long)"
                )
            }
        default:
            connection.dropped(because: error)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection.ended(unfinishedBytes: pending?.bytes.readableBytes)
        context.fireChannelInactive()
    }

    /// Whether a close frame may carry `code` (RFC 6455 §7.4).
    ///
    /// 1000–1003 and 1007–1014 are the protocol's, 3000–4999 of registered and private use;
    /// 1004–1006 and 1015 are never sent, and the rest is reserved.
    static func isValidCloseCode(_ code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
