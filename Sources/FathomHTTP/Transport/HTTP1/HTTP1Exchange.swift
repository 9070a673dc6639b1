import Foundation
import NIOCore
import NIOHTTP1

/// What one exchange on an HTTP/1.1 connection brought back.
struct HTTP1Answer: Sendable {
    /// The status line and headers.
    var head: HTTPResponseHead
    /// The whole body (decompressed when the connection decompresses).
    var body: ByteBuffer
    /// When the head arrived: the time to the first byte.
    var headArrived: ContinuousClock.Instant
    /// Whether the connection may carry another request.
    var keepAlive: Bool
}

/// Why an exchange ended without an answer, when no error of NIO's says it.
enum HTTP1ExchangeFailure: Error, Sendable {
    /// The connection closed before any of a response arrived: a kept-alive connection the
    /// server had let go, worth one more try for an idempotent request on a new one.
    case closedBeforeAnswering
    /// The connection closed part-way through a response.
    case closedWhileAnswering
}

/// The one handler of an ``HTTP1Engine`` connection's pipeline that is Fathom's: one request at a
/// time (no pipelining), its response gathered whole, bounded in size and time.
///
/// Every method runs on the channel's event loop.
final class HTTP1ExchangeHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let maxBodySize: Int
    private var context: ChannelHandlerContext?
    private var promise: EventLoopPromise<HTTP1Answer>?
    private var timer: Scheduled<Void>?
    private var head: HTTPResponseHead?
    private var headArrived = ContinuousClock.now
    private var body = ByteBuffer()
    /// Whether the connection may carry another request once this one is answered.
    private(set) var reusable = true

    init(maxBodySize: Int) {
        self.maxBodySize = maxBodySize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Sends `request` and fulfils `promise` with its answer, or fails it at `deadline` with
    /// `timeout`.
    func start(
        _ request: HTTPRequestHead, body requestBody: ByteBuffer?, deadline: NIODeadline, timeout: any Error & Sendable,
        promise: EventLoopPromise<HTTP1Answer>
    ) {
        guard let context, context.channel.isActive, self.promise == nil else {
            promise.fail(HTTP1ExchangeFailure.closedBeforeAnswering)
            return
        }
        self.promise = promise
        head = nil
        body.clear()
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            this.value.fail(timeout)
        }
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        if let requestBody, requestBody.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(requestBody))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard promise != nil else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // An interim answer (100 Continue, 103 Early Hints) is not the response.
            if (100..<200).contains(head.status.code), head.status != .switchingProtocols { return }
            headArrived = .now
            self.head = head
            if let declared = head.headers.first(name: "content-length").flatMap(Int.init), declared > maxBodySize,
                !head.headers.contains(name: "content-encoding")
            {
                fail(NetworkError.bodyTooLarge(limit: maxBodySize, decompressed: false))
            }
        case .body(var part):
            guard body.readableBytes + part.readableBytes <= maxBodySize else {
                fail(
                    NetworkError.bodyTooLarge(
                        limit: maxBodySize, decompressed: head?.headers.contains(name: "content-encoding") ?? false))
                return
            }
            body.writeBuffer(&part)
        case .end:
            guard let head, let promise else { return }
            self.promise = nil
            timer?.cancel()
            let keepAlive = head.isKeepAlive && reusable
            if !keepAlive { close() }
            promise.succeed(HTTP1Answer(head: head, body: body, headArrived: headArrived, keepAlive: keepAlive))
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A reset before any answer is the server having let the connection go.
        if head == nil, let io = error as? IOError, io.errnoCode == ECONNRESET || io.errnoCode == EPIPE {
            fail(HTTP1ExchangeFailure.closedBeforeAnswering)
        } else {
            fail(error)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        reusable = false
        fail(head == nil ? HTTP1ExchangeFailure.closedBeforeAnswering : HTTP1ExchangeFailure.closedWhileAnswering)
        context.fireChannelInactive()
    }

    /// Ends the exchange in flight with `error` and closes the connection: a connection that
    /// stopped part-way is never used again.
    func fail(_ error: any Error) {
        reusable = false
        timer?.cancel()
        if let promise {
            self.promise = nil
            promise.fail(error)
        }
        close()
    }

    private func close() {
        reusable = false
        context?.close(promise: nil)
    }
}
