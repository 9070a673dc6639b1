extension NetworkRequest {
    /// Adds a query item.
    ///
    /// Repeating a name adds another item with that name.
    public func query(_ name: String, _ value: some QueryValueConvertible) -> NetworkRequest {
        var copy = self
        copy.queryItems.append(QueryItem(name, value.queryValue))
        return copy
    }

    /// Adds one query item per value, all with the same name (`?id=1&id=2`).
    public func query(_ name: String, _ values: [some QueryValueConvertible]) -> NetworkRequest {
        var copy = self
        copy.queryItems += values.map { QueryItem(name, $0.queryValue) }
        return copy
    }

    /// Adds a query item without a value (`?verbose`).
    public func query(flag name: String) -> NetworkRequest {
        var copy = self
        copy.queryItems.append(QueryItem(name, nil))
        return copy
    }

    /// Adds query items.
    public func query(_ items: [QueryItem]) -> NetworkRequest {
        var copy = self
        copy.queryItems += items
        return copy
    }

    /// Removes every query item with this name.
    public func removingQuery(_ name: String) -> NetworkRequest {
        var copy = self
        copy.queryItems.removeAll { $0.name == name }
        return copy
    }
}
