import Foundation

extension NetworkRequest {
    /// Sets a JSON body encoded from `value`.
    ///
    /// An encoding failure is reported when the request is prepared, so the chain stays unbroken.
    public func body(json value: some Encodable, encoder: JSONEncoder = JSONEncoder()) -> NetworkRequest {
        var copy = self
        do {
            copy.body = .json(try encoder.encode(value))
        } catch {
            copy.body = nil
            copy.buildProblem = "cannot encode \(type(of: value)) as JSON: \(error)"
        }
        return copy
    }

    /// Sets a JSON body from JSON text, sent as written.
    public func body(jsonText: String) -> NetworkRequest {
        var copy = self
        copy.body = .json(Data(jsonText.utf8))
        return copy
    }

    /// Sets a form body (`application/x-www-form-urlencoded`) in the given order.
    public func body(form fields: [(String, any QueryValueConvertible)]) -> NetworkRequest {
        var copy = self
        copy.body = .form(fields.map { QueryItem($0.0, $0.1.queryValue) })
        return copy
    }

    /// Sets a form body from query items.
    public func body(form items: [QueryItem]) -> NetworkRequest {
        var copy = self
        copy.body = .form(items)
        return copy
    }

    /// Sets a `multipart/form-data` body.
    public func body(multipart form: MultipartForm) -> NetworkRequest {
        var copy = self
        copy.body = .multipart(form)
        return copy
    }

    /// Sets raw bytes as the body.
    public func body(_ data: Data, contentType: String? = nil) -> NetworkRequest {
        var copy = self
        copy.body = .data(data, contentType: contentType)
        return copy
    }

    /// Sets text as the body (`text/plain; charset=utf-8` unless a type is given).
    public func body(text: String, contentType: String = MediaType.plainText) -> NetworkRequest {
        var copy = self
        copy.body = .data(Data(text.utf8), contentType: contentType)
        return copy
    }

    /// Streams a file from disk as the body; the media type defaults from the file's extension.
    public func body(file path: String, contentType: String? = nil) -> NetworkRequest {
        var copy = self
        copy.body = .file(path: path, contentType: contentType)
        return copy
    }

    /// Sends `sources` one after another, files streamed from disk as they go (what curl sends
    /// for `-d a=1 -d @file`).
    public func body(sequence sources: [BodySource], contentType: String? = nil) -> NetworkRequest {
        var copy = self
        copy.body = .sequence(sources, contentType: contentType)
        return copy
    }

    /// Removes the body.
    public func noBody() -> NetworkRequest {
        var copy = self
        copy.body = nil
        copy.buildProblem = nil
        return copy
    }
}
