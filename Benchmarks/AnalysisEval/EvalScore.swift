import Foundation
import VoiceNotes

/// The metrics of ../shared/eval/README.md, accumulated over examples, with the errors counted by
/// kind so a change shows which kind it moved.
struct EvalScore {
  /// The kinds of error, in the order the error table prints them.
  enum ErrorKind: String, CaseIterable {
    case missedPerson = "missed person"
    case extraPerson = "extra person"
    case inventedPerson = "invented person"
    case missedAction = "missed action"
    case extraAction = "extra action"
    case actionPeople = "action's people"
    case completion = "done/open wrong"
    case tagsCase = "tag not lowercase"
    case titleLength = "title length"
    case titleGeneric = "generic title"
    case summaryLength = "summary length"
    case summaryUnsupported = "summary unsupported"
  }

  var examples = 0
  var failures = 0
  var peopleTruePositives = 0
  var peoplePredicted = 0
  var peopleExpected = 0
  var inventedPeople = 0
  var actionsFound = 0
  var actionsRequired = 0
  var predictedMatching = 0
  var predictedActions = 0
  var completionCorrect = 0
  var completionGiven = 0
  var titlesInGuide = 0
  var summariesInGuide = 0
  var tagsInGuide = 0
  var tagsLowercase = 0
  var seconds: [Double] = []
  var promptTokens = 0
  var generatedTokens = 0
  var errors: [ErrorKind: Int] = [:]
  /// Each error, "id: kind: detail", for --verbose.
  var details: [String] = []

  /// Titles that say nothing about a note.
  static let genericTitles: Set<String> = ["voice note", "voice note analysis", "quick note", "note", "untitled"]

  private mutating func count(_ kind: ErrorKind, _ example: EvalExample, _ detail: String) {
    errors[kind, default: 0] += 1
    details.append("\(example.id): \(kind.rawValue): \(detail)")
  }

  /// Counts a note whose analysis failed: its people and action items are all missed, so a
  /// failure lowers recall instead of leaving the note out of it.
  mutating func addFailure(_ example: EvalExample) {
    failures += 1
    let expected = Set(example.people.map { $0.lowercased() })
    peopleExpected += expected.count
    for person in expected { count(.missedPerson, example, person) }
    for action in example.actions where action.optional != true {
      actionsRequired += 1
      count(.missedAction, example, action.keywords.joined(separator: " + "))
    }
  }

  mutating func add(
    _ example: EvalExample, _ analysis: NoteAnalysis, seconds: Double, promptTokens: Int, generatedTokens: Int
  ) {
    examples += 1
    self.seconds.append(seconds)
    self.promptTokens += promptTokens
    self.generatedTokens += generatedTokens
    let transcript = example.transcript.lowercased()
    let expected = Set(example.people.map { $0.lowercased() })
    let predicted = Set(analysis.people.map { $0.lowercased() })
    for person in predicted {
      peoplePredicted += 1
      if expected.contains(person) {
        peopleTruePositives += 1
      } else if !transcript.contains(person) {
        inventedPeople += 1
        count(.inventedPerson, example, person)
      } else {
        count(.extraPerson, example, person)
      }
    }
    for person in expected.subtracting(predicted) { count(.missedPerson, example, person) }
    peopleExpected += expected.count
    var used = Set<Int>()
    for action in example.actions {
      guard
        let index = analysis.actionItems.indices.first(where: {
          !used.contains($0) && action.matches(analysis.actionItems[$0].task)
        })
      else {
        if action.optional != true {
          actionsRequired += 1
          count(.missedAction, example, action.keywords.joined(separator: " + "))
        }
        continue
      }
      used.insert(index)
      let item = analysis.actionItems[index]
      if action.optional != true {
        actionsRequired += 1
        actionsFound += 1
      }
      if let completed = action.completed {
        completionGiven += 1
        if item.isCompleted == completed {
          completionCorrect += 1
        } else {
          count(.completion, example, item.task)
        }
      }
      let wanted = Set(action.people.map { $0.lowercased() })
      let given = Set(item.people.map { $0.lowercased() })
      if wanted != given {
        count(.actionPeople, example, "\(item.task): \(item.people) (expected \(action.people))")
      }
    }
    for item in analysis.actionItems {
      predictedActions += 1
      if example.actions.contains(where: { $0.matches(item.task) }) {
        predictedMatching += 1
      } else {
        count(.extraAction, example, item.task)
      }
    }
    let words = analysis.title.split(separator: " ").count
    if (3...8).contains(words) { titlesInGuide += 1 } else { count(.titleLength, example, analysis.title) }
    if Self.genericTitles.contains(analysis.title.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
      count(.titleGeneric, example, analysis.title)
    }
    let sentences = Self.sentenceCount(analysis.summary)
    if (2...3).contains(sentences) {
      summariesInGuide += 1
    } else {
      count(.summaryLength, example, "\(sentences) sentences: \(analysis.summary)")
    }
    let unsupported = Self.unsupportedTerms(in: analysis.summary, transcript: example.transcript)
    if !unsupported.isEmpty {
      count(.summaryUnsupported, example, "\(unsupported.joined(separator: ", ")): \(analysis.summary)")
    }
    if (1...5).contains(analysis.tags.count) { tagsInGuide += 1 }
    if analysis.tags.allSatisfy({ $0 == $0.lowercased() }) {
      tagsLowercase += 1
    } else {
      count(.tagsCase, example, analysis.tags.joined(separator: ", "))
    }
  }

  /// Sentences of a summary: ends of ".", "!" or "?" before a space or the end, not after an
  /// abbreviated title ("Dr.") or a single letter ("J.").
  static func sentenceCount(_ text: String) -> Int {
    let words = text.split(whereSeparator: \.isWhitespace)
    return words.filter { word in
      guard let last = word.last, ".!?".contains(last) else { return false }
      let bare = word.dropLast().filter(\.isLetter).lowercased()
      return !(last == "." && (bare.count == 1 || ["dr", "mr", "mrs", "ms", "st", "prof"].contains(bare)))
    }.count + (text.last.map { ".!?".contains($0) } == false ? 1 : 0)
  }

  /// The names and numbers of `summary` that `transcript` never uses: a capitalised word that
  /// does not start a sentence (other than "I" and its contractions), and any word with a digit.
  /// A made-up name, date or amount is the invented fact a reader is most misled by, and the one
  /// a word check can find; a fact put together wrongly from the note's own words it cannot.
  static func unsupportedTerms(in summary: String, transcript: String) -> [String] {
    let heard = transcript.lowercased().replacingOccurrences(of: "’", with: "'")
    var terms: [String] = []
    var startsSentence = true
    for raw in summary.split(whereSeparator: \.isWhitespace) {
      let word = raw.replacingOccurrences(of: "’", with: "'").trimmingCharacters(in: .punctuationCharacters)
      defer { startsSentence = raw.last.map { ".!?:".contains($0) } ?? false }
      let bare = word.lowercased().hasSuffix("'s") ? String(word.dropLast(2)) : word
      guard let first = bare.first else { continue }
      let isNumber = bare.contains(where: \.isNumber)
      let isName = first.isUppercase && !startsSentence && bare != "I" && !bare.hasPrefix("I'")
      if isNumber || isName, !heard.contains(bare.lowercased()) { terms.append(word) }
    }
    return terms
  }

  static func ratio(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 1 : Double(part) / Double(whole) }

  /// People's F1.
  var peopleF1: Double {
    let precision = Self.ratio(peopleTruePositives, peoplePredicted)
    let recall = Self.ratio(peopleTruePositives, peopleExpected)
    return precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
  }

  static func table(_ reports: [(String, EvalScore)]) -> String {
    var lines = [
      "model / notes     notes  decoded  people P/R/F1        invented  actions recall  precision  completion  title ok  summary ok  tags ok  lowercase  s/note  prompt tok/note  gen tok/note"
    ]
    for (name, score) in reports {
      let precision = ratio(score.peopleTruePositives, score.peoplePredicted)
      let recall = ratio(score.peopleTruePositives, score.peopleExpected)
      let total = score.examples + score.failures
      let median = score.seconds.sorted()[safe: score.seconds.count / 2] ?? 0
      lines.append(
        String(
          format:
            "%-17@ %5d  %6.0f%%  %.2f/%.2f/%.2f    %8d  %14.2f  %9.2f  %10@  %7.0f%%  %9.0f%%  %6.0f%%  %8.0f%%  %6.1f  %15d  %12d",
          name as NSString, total, ratio(score.examples, total) * 100, precision, recall, score.peopleF1,
          score.inventedPeople, ratio(score.actionsFound, score.actionsRequired),
          ratio(score.predictedMatching, score.predictedActions),
          (score.completionGiven == 0
            ? "n/a" : String(format: "%.2f", ratio(score.completionCorrect, score.completionGiven))) as NSString,
          ratio(score.titlesInGuide, score.examples) * 100, ratio(score.summariesInGuide, score.examples) * 100,
          ratio(score.tagsInGuide, score.examples) * 100,
          ratio(score.tagsLowercase, score.examples) * 100, median, score.promptTokens / max(score.examples, 1),
          score.generatedTokens / max(score.examples, 1)))
    }
    return lines.joined(separator: "\n")
  }

  /// Errors by kind, one column per report.
  static func errorTable(_ reports: [(String, EvalScore)]) -> String {
    var lines = ["errors".padding(toLength: 20, withPad: " ", startingAt: 0) + reports.map { pad($0.0) }.joined()]
    for kind in ErrorKind.allCases {
      lines.append(
        kind.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)
          + reports.map { pad(String($0.1.errors[kind] ?? 0)) }.joined())
    }
    return lines.joined(separator: "\n")
  }

  private static func pad(_ text: String) -> String {
    String(repeating: " ", count: max(0, 18 - text.count)) + text
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
