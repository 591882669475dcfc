import Foundation

/// Reads the JSON lists of strings that the tags and people columns hold, without a full JSON
/// decoder: lists of notes read thousands of them, and Foundation's decoder costs tens of
/// microseconds a call. Anything but a plain list of strings is left to `JSONDecoder`.
enum StringListColumn {
  /// The strings of `data` (`["a","b"]`), or nil when it is not a list this reader handles.
  static func decode(_ data: Data) -> [String]? {
    let bytes = [UInt8](data)
    var index = 0
    func skipSpaces() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x09 { index += 1 }
    }
    skipSpaces()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else { return nil }
    index += 1
    var strings: [String] = []
    skipSpaces()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return [] }
    while index < bytes.count {
      skipSpaces()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      index += 1
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
        // Escapes (quotes, unicode) are rare here: the full decoder handles them.
        if bytes[index] == UInt8(ascii: "\\") { return nil }
        index += 1
      }
      guard index < bytes.count else { return nil }
      strings.append(String(decoding: bytes[start..<index], as: UTF8.self))
      index += 1
      skipSpaces()
      guard index < bytes.count else { return nil }
      if bytes[index] == UInt8(ascii: "]") { return strings }
      guard bytes[index] == UInt8(ascii: ",") else { return nil }
      index += 1
    }
    return nil
  }
}
