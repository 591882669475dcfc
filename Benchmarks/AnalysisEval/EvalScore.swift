import Foundation
import VoiceNotes

/// The metrics of ../shared/eval/README.md, accumulated over examples.
struct EvalScore {
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
  var tagsInGuide = 0
  var seconds: [Double] = []
  var promptTokens = 0
  var generatedTokens = 0

  mutating func add(
    _ example: EvalExample, _ analysis: NoteAnalysis, seconds: Double, promptTokens: Int, generatedTokens: Int
  ) {
    examples += 1
    self.seconds.append(seconds)
    self.promptTokens += promptTokens
    self.generatedTokens += generatedTokens
    let transcript = example.transcript.lowercased()
    let expected = Set(example.people.map { $0.lowercased() })
    for person in Set(analysis.people.map { $0.lowercased() }) {
      peoplePredicted += 1
      if expected.contains(person) { peopleTruePositives += 1 }
      if !transcript.contains(person) { inventedPeople += 1 }
    }
    peopleExpected += expected.count
    var used = Set<Int>()
    for action in example.actions where action.optional != true {
      actionsRequired += 1
      if let index = analysis.actionItems.indices.first(where: {
        !used.contains($0) && action.matches(analysis.actionItems[$0].task)
      }) {
        used.insert(index)
        actionsFound += 1
        if let completed = action.completed {
          completionGiven += 1
          if analysis.actionItems[index].isCompleted == completed { completionCorrect += 1 }
        }
      }
    }
    for item in analysis.actionItems {
      predictedActions += 1
      if example.actions.contains(where: { $0.matches(item.task) }) { predictedMatching += 1 }
    }
    let words = analysis.title.split(separator: " ").count
    if (3...8).contains(words) { titlesInGuide += 1 }
    if (1...5).contains(analysis.tags.count) { tagsInGuide += 1 }
  }

  static func ratio(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 1 : Double(part) / Double(whole) }

  static func table(_ reports: [(String, EvalScore)]) -> String {
    var lines = [
      "model       notes  decoded  people P/R/F1        invented  actions recall  precision  completion  title ok  tags ok  s/note  prompt tok/note  gen tok/note"
    ]
    for (name, score) in reports {
      let precision = ratio(score.peopleTruePositives, score.peoplePredicted)
      let recall = ratio(score.peopleTruePositives, score.peopleExpected)
      let f1 = precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall)
      let total = score.examples + score.failures
      let median = score.seconds.sorted()[safe: score.seconds.count / 2] ?? 0
      lines.append(
        String(
          format:
            "%-11@ %5d  %6.0f%%  %.2f/%.2f/%.2f    %8d  %14.2f  %9.2f  %10@  %7.0f%%  %6.0f%%  %6.1f  %15d  %12d",
          name as NSString, total, ratio(score.examples, total) * 100, precision, recall, f1, score.inventedPeople,
          ratio(score.actionsFound, score.actionsRequired), ratio(score.predictedMatching, score.predictedActions),
          (score.completionGiven == 0
            ? "n/a" : String(format: "%.2f", ratio(score.completionCorrect, score.completionGiven))) as NSString,
          ratio(score.titlesInGuide, score.examples) * 100,
          ratio(score.tagsInGuide, score.examples) * 100, median, score.promptTokens / max(score.examples, 1),
          score.generatedTokens / max(score.examples, 1)))
    }
    return lines.joined(separator: "\n")
  }
}

extension Array {
  subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
