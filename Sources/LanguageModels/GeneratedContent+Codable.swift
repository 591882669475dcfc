import Foundation

/// Generated content is encoded as its JSON text, so a transcript that holds tool arguments or a
/// structured response can be saved and read back (`JSONEncoder().encode(session.transcript)`).
extension GeneratedContent: Codable {
  /// Reads content written by ``encode(to:)``: its JSON text.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let json = try container.decode(String.self)
    do {
      try self.init(json: json)
    } catch {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "generated content is not JSON: \(error.localizedDescription)")
    }
  }

  /// Writes the content as its JSON text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(jsonString)
  }
}
