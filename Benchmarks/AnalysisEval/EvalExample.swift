import Foundation

/// One line of the evaluation file: a transcript and what should be extracted from it.
struct EvalExample: Decodable {
  /// An expected action item: every keyword entry must match (entries hold `|`-separated alternatives).
  struct Action: Decodable {
    var keywords: [String]
    var people: [String]
    var completed: Bool?
    var optional: Bool?

    /// Whether `task` matches: for every entry, one of its alternatives appears in it.
    func matches(_ task: String) -> Bool {
      let text = task.lowercased()
      return keywords.allSatisfy { entry in
        entry.split(separator: "|").contains { text.contains($0.lowercased().trimmingCharacters(in: .whitespaces)) }
      }
    }
  }

  var id: String
  var transcript: String
  var people: [String]
  var actions: [Action]

  static func load(_ url: URL) throws -> [EvalExample] {
    let decoder = JSONDecoder()
    return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.isEmpty }.map {
      try decoder.decode(EvalExample.self, from: Data($0.utf8))
    }
  }
}
