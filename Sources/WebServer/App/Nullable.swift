// swift-format-ignore-file: UseSynthesizedInitializer

/// An optional field that the API always writes: `null` when empty rather than left out, so
/// clients see every documented key.
@propertyWrapper
struct Nullable<Value: Encodable>: Encodable {
  var wrappedValue: Value?

  // Written out so that memberwise initializers of the payloads take a plain optional.
  init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}
