import Foundation

extension CommandGrammar.Element {
  private enum CodingKeys: String, CodingKey {
    case literal
    case rule
  }

  /// Reads `{"literal": "text"}` or `{"rule": "name"}`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let text = try container.decodeIfPresent(String.self, forKey: .literal) {
      self = .literal(text)
    } else if let name = try container.decodeIfPresent(String.self, forKey: .rule) {
      self = .rule(name)
    } else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath, debugDescription: "a grammar element needs \"literal\" or \"rule\""))
    }
  }

  /// Writes `{"literal": "text"}` or `{"rule": "name"}`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .literal(let text): try container.encode(text, forKey: .literal)
    case .rule(let name): try container.encode(name, forKey: .rule)
    }
  }
}
