/// What can load its properties asynchronously, as AVFoundation's assets and tracks do.
public protocol AVAsyncPropertyLoadable: AnyObject {}

extension AVAsyncPropertyLoadable {
  /// Loads `property` (`.duration`, `.isPlayable`, `.tracks`, ...).
  ///
  /// - Throws: ``AudioIOError`` when the file behind it cannot be read.
  public func load<Value>(_ property: AVAsyncProperty<Self, Value>) async throws -> Value {
    try property.load(self)
  }

  /// Loads two properties at once.
  public func load<A, B>(_ first: AVAsyncProperty<Self, A>, _ second: AVAsyncProperty<Self, B>) async throws -> (A, B) {
    (try first.load(self), try second.load(self))
  }

  /// Loads three properties at once.
  public func load<A, B, C>(
    _ first: AVAsyncProperty<Self, A>, _ second: AVAsyncProperty<Self, B>, _ third: AVAsyncProperty<Self, C>
  ) async throws -> (A, B, C) {
    (try first.load(self), try second.load(self), try third.load(self))
  }
}
