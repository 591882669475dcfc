/// Reads JSON text into ``GeneratedContent``, keeping the order of object keys.
///
/// In partial mode it reads a prefix of a JSON document, such as a model's output while it is still
/// streaming, into the best content that prefix supports:
/// - an unfinished string keeps the characters read so far (a half-read escape is dropped);
/// - an unfinished number is dropped, since more digits may follow;
/// - an unfinished `true`, `false` or `null` is kept, since each prefix has one completion;
/// - an unfinished property name, or a name without its value, leaves the property absent;
/// - an unfinished array or object keeps the elements and properties read so far.
///
/// Text that stops being valid JSON is treated like the end of the input in partial mode.
struct JSONScanner {
  private let bytes: [UInt8]
  private var index = 0
  private let isPartial: Bool
  private let baseID: GenerationID?
  /// Whether reading stopped early, at the end of the input or at invalid text (partial mode only).
  private var isTruncated = false

  private init(_ text: String, isPartial: Bool, id: GenerationID?) {
    bytes = Array(text.utf8)
    self.isPartial = isPartial
    baseID = id
  }

  /// Reads a whole JSON document.
  ///
  /// - Parameters:
  ///   - text: The JSON text.
  ///   - id: When given, every structure gets an identifier derived from it and from its location.
  /// - Throws: ``GeneratedContent/ConversionError/invalidJSON(offset:reason:)``.
  static func parse(_ text: String, id: GenerationID? = nil) throws -> GeneratedContent {
    var scanner = JSONScanner(text, isPartial: false, id: id)
    scanner.skipWhitespace()
    guard let content = try scanner.parseValue(path: "") else {
      throw GeneratedContent.ConversionError.invalidJSON(offset: scanner.index, reason: "no value")
    }
    scanner.skipWhitespace()
    guard scanner.index == scanner.bytes.count else {
      throw GeneratedContent.ConversionError.invalidJSON(
        offset: scanner.index, reason: "unexpected text after the value")
    }
    return content
  }

  /// Reads a prefix of a JSON document into the best partial content; `null` when nothing is usable.
  ///
  /// - Parameters:
  ///   - text: The JSON text read so far.
  ///   - id: When given, every structure gets an identifier derived from it and from its location.
  static func parsePartial(_ text: String, id: GenerationID? = nil) -> GeneratedContent {
    if let whole = try? parse(text, id: id) {
      return whole
    }
    var scanner = JSONScanner(text, isPartial: true, id: id)
    scanner.skipWhitespace()
    let content = (try? scanner.parseValue(path: "")) ?? nil
    var result = content ?? GeneratedContent(kind: .null, id: id)
    result.isComplete = false
    return result
  }

  // MARK: - Values

  private mutating func parseValue(path: String) throws -> GeneratedContent? {
    skipWhitespace()
    guard index < bytes.count else {
      try stop("unexpected end of text")
      return nil
    }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      return try parseObject(path: path)
    case UInt8(ascii: "["):
      return try parseArray(path: path)
    case UInt8(ascii: "\""):
      guard let (text, complete) = try parseString() else { return nil }
      var content = GeneratedContent(kind: .string(text))
      content.isComplete = complete
      return content
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      return try parseLiteral()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      try stop("unexpected character")
      return nil
    }
  }

  private mutating func parseObject(path: String) throws -> GeneratedContent? {
    index += 1
    var properties: [String: GeneratedContent] = [:]
    var keys: [String] = []
    var closed = false
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      closed = true
    }
    while !closed {
      skipWhitespace()
      guard index < bytes.count else {
        try stop("unexpected end of text in an object")
        break
      }
      guard bytes[index] == UInt8(ascii: "\"") else {
        try stop("expected a property name")
        break
      }
      guard let (key, keyComplete) = try parseString(), keyComplete else { break }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        try stop(index < bytes.count ? "expected ':' after a property name" : "unexpected end of text in an object")
        break
      }
      index += 1
      let value = try parseValue(path: path + "/" + key)
      if let value {
        if properties.updateValue(value, forKey: key) == nil {
          keys.append(key)
        }
      }
      if isTruncated { break }
      skipWhitespace()
      guard index < bytes.count else {
        try stop("unexpected end of text in an object")
        break
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "}") {
        index += 1
        closed = true
      } else {
        try stop("expected ',' or '}' in an object")
        break
      }
    }
    var content = GeneratedContent(
      kind: .structure(properties: properties, orderedKeys: keys),
      id: baseID.map { path.isEmpty ? $0 : $0.appending(path) })
    content.isComplete = closed
    return content
  }

  private mutating func parseArray(path: String) throws -> GeneratedContent? {
    index += 1
    var elements: [GeneratedContent] = []
    var closed = false
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      closed = true
    }
    while !closed {
      if let element = try parseValue(path: path + "/" + String(elements.count)) {
        elements.append(element)
      }
      if isTruncated { break }
      skipWhitespace()
      guard index < bytes.count else {
        try stop("unexpected end of text in an array")
        break
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] == UInt8(ascii: "]") {
        index += 1
        closed = true
      } else {
        try stop("expected ',' or ']' in an array")
        break
      }
    }
    var content = GeneratedContent(kind: .array(elements))
    content.isComplete = closed
    return content
  }

  /// Reads a string starting at its opening quote; returns its text and whether it was closed.
  private mutating func parseString() throws -> (String, Bool)? {
    index += 1
    var text: [UInt8] = []
    var pendingHighSurrogate: UInt32?
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return (String(decoding: text, as: UTF8.self), true)
      }
      if byte < 0x20 {
        try stop("control character in a string")
        return (String(decoding: text, as: UTF8.self), false)
      }
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        index += 1
        continue
      }
      guard index + 1 < bytes.count else { break }
      let escape = bytes[index + 1]
      let simple: UInt8? =
        switch escape {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case UInt8(ascii: "/"): UInt8(ascii: "/")
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
      if let simple {
        text.append(simple)
        index += 2
        continue
      }
      guard escape == UInt8(ascii: "u") else {
        try stop("invalid escape in a string")
        return (String(decoding: text, as: UTF8.self), false)
      }
      guard index + 6 <= bytes.count else { break }
      guard let unit = UInt32(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16) else {
        try stop("invalid \\u escape in a string")
        return (String(decoding: text, as: UTF8.self), false)
      }
      index += 6
      var scalarValue = unit
      if (0xD800...0xDBFF).contains(unit) {
        pendingHighSurrogate = unit
        continue
      }
      if (0xDC00...0xDFFF).contains(unit), let high = pendingHighSurrogate {
        scalarValue = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
      }
      pendingHighSurrogate = nil
      let scalar = Unicode.Scalar(scalarValue) ?? "\u{FFFD}"
      text.append(contentsOf: Array(String(Character(scalar)).utf8))
    }
    index = bytes.count
    try stop("unexpected end of text in a string")
    return (String(decoding: text, as: UTF8.self), false)
  }

  private mutating func parseNumber() throws -> GeneratedContent? {
    let start = index
    while index < bytes.count, Self.isNumberByte(bytes[index]) {
      index += 1
    }
    if isPartial, index == bytes.count {
      // More digits may follow: the number is not known yet.
      isTruncated = true
      return nil
    }
    guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
      index = start
      try stop("invalid number")
      return nil
    }
    // Double's parser gives infinity for a number beyond its range (1e400), which JSON cannot
    // write back (the writer prints null).
    guard number.isFinite else {
      index = start
      try stop("number out of range")
      return nil
    }
    return GeneratedContent(kind: .number(number))
  }

  private mutating func parseLiteral() throws -> GeneratedContent? {
    let literals: [(String, GeneratedContent.Kind)] = [("true", .bool(true)), ("false", .bool(false)), ("null", .null)]
    for (word, kind) in literals where bytes[index] == word.utf8.first {
      let wordBytes = Array(word.utf8)
      let available = min(wordBytes.count, bytes.count - index)
      guard Array(bytes[index..<(index + available)]) == Array(wordBytes[0..<available]) else { break }
      index += available
      var content = GeneratedContent(kind: kind)
      if available < wordBytes.count {
        try stop("unexpected end of text in a literal")
        content.isComplete = false
      }
      return content
    }
    try stop("invalid literal")
    return nil
  }

  // MARK: - Helpers

  private static func isNumberByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
      UInt8(ascii: "e"), UInt8(ascii: "E"):
      true
    default:
      false
    }
  }

  private mutating func skipWhitespace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
  }

  /// Ends reading: in partial mode by marking the content truncated, otherwise by throwing.
  private mutating func stop(_ reason: String) throws {
    guard isPartial else {
      throw GeneratedContent.ConversionError.invalidJSON(offset: index, reason: reason)
    }
    isTruncated = true
  }
}
