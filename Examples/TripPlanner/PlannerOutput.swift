import Foundation

/// Writes the itinerary to the terminal as it streams, and notes to standard error.
enum PlannerOutput {
  /// Whether standard output is a terminal (then the itinerary is redrawn in place as it grows).
  static let isTerminal = isatty(STDOUT_FILENO) != 0

  /// A dimmed progress note on standard error.
  static func note(_ text: String) {
    let line = isatty(STDERR_FILENO) != 0 ? "\u{1B}[2m\(text)\u{1B}[0m\n" : "\(text)\n"
    FileHandle.standardError.write(Data(line.utf8))
  }

  /// The itinerary so far, as lines of text.
  static func lines(for itinerary: Itinerary.PartiallyGenerated) -> [String] {
    var lines: [String] = []
    if let title = itinerary.title { lines.append(bold(title)) }
    if let description = itinerary.description { lines.append(description) }
    if let rationale = itinerary.rationale { lines.append("Why: \(rationale)") }
    for (index, day) in (itinerary.days ?? []).enumerated() {
      lines.append("")
      let title = day.title ?? "Day \(index + 1)"
      lines.append(bold(title) + (day.destination.map { " — \($0)" } ?? ""))
      for activity in day.activities ?? [] {
        let kind = activity.type.map { "[\($0)] " } ?? ""
        lines.append("  • \(kind)\(activity.title ?? "…")" + (activity.description.map { ": \($0)" } ?? ""))
      }
    }
    return lines
  }

  /// Redraws the itinerary in place (terminal) after `previousLineCount` lines drawn before.
  static func redraw(_ lines: [String], replacing previousLineCount: Int) {
    var output = ""
    if previousLineCount > 0 { output += "\u{1B}[\(previousLineCount)F\u{1B}[J" }
    output += lines.joined(separator: "\n") + "\n"
    FileHandle.standardOutput.write(Data(output.utf8))
  }

  private static func bold(_ text: String) -> String { isTerminal ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
}

/// Why the planner stopped, with what to do.
enum PlannerError: Error, LocalizedError {
  case missingDataset
  case unknownLandmark(String, known: [String])

  var errorDescription: String? {
    switch self {
    case .missingDataset: "the landmark dataset (landmarks.json) is missing from the build; rebuild the example"
    case .unknownLandmark(let name, let known):
      "no landmark called '\(name)'; choose one of: \(known.joined(separator: ", "))"
    }
  }
}
