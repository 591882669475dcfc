import Foundation

/// Reads small values off the front of a fuzz input; past the end every value is zero.
struct ByteReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ data: Data) { bytes = Array(data) }

  /// Whether every byte was read.
  var isAtEnd: Bool { offset >= bytes.count }

  /// The next byte.
  mutating func byte() -> UInt8 {
    guard offset < bytes.count else { return 0 }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// The next two bytes, little-endian.
  mutating func uint16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

  /// The next four bytes, little-endian.
  mutating func uint32() -> UInt32 { UInt32(uint16()) | UInt32(uint16()) << 16 }

  /// The bytes not read yet.
  mutating func rest() -> Data {
    defer { offset = bytes.count }
    return offset < bytes.count ? Data(bytes[offset...]) : Data()
  }
}
