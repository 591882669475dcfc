// The ask-your-notes evaluation (make eval): a library built from the analysis set's transcripts,
// then each question of the question set searched (keyword, semantic, hybrid: recall@5) and asked
// (answer correctness, citation correctness, abstention). Usage:
//
//   AskEval QUESTIONS.jsonl NOTES.jsonl [--model qwen-1.5b] [--library FOLDER] [--retrieval-only] [--verbose]
//           [--only q01,q02] [--dump-excerpts FILE.jsonl]
//
// --dump-excerpts writes, one JSON object a line, each excerpt the assistant's search shows for
// each question (question id and text, note id, excerpt, whether the note answers it): the input
// for trying other excerpt checks against a model server without rebuilding.
//
// The library is kept in FOLDER (by default .build/eval/ask-library) and built again only when the
// number of notes changes, since analysing 38 notes takes minutes. Its analyses (summaries and
// action items, which search indexes) are those of the build that made it: after changing the
// analysis, delete the folder, as `make eval` does.
import Foundation
import LanguageModels
import Synchronization
import VoiceNotes

struct Question: Decodable {
  var id: String
  var question: String
  var notes: [String]
  var keywords: [String]
  var kind: String
}

struct EvalNote: Decodable {
  var id: String
  var transcript: String
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("AskEval: \(message)\n".utf8))
  exit(2)
}

func readLines<T: Decodable>(_ path: String, as type: T.Type) -> [T] {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fail("cannot read \(path)") }
  return text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { line in
    do { return try JSONDecoder().decode(T.self, from: Data(line.utf8)) } catch { fail("\(path): \(error)") }
  }
}

/// A note identifier (a UUID) made from an evaluation id, so results map back to it.
func noteID(_ evalID: String) -> String {
  let hex = evalID.utf8.map { String(format: "%02x", $0) }.joined()
  return "e7a10000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - hex.count)) + hex.suffix(12)
}

/// The value after `name` in `arguments`, which loses both.
func option(_ name: String, in arguments: inout [String]) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  defer { arguments.removeSubrange(index...(index + 1)) }
  return arguments[index + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
let modelName = option("--model", in: &arguments) ?? LanguageModelWeights.default.name
let libraryPath = option("--library", in: &arguments) ?? ".build/eval/ask-library"
let dumpPath = option("--dump-excerpts", in: &arguments)
let onlyIDs = option("--only", in: &arguments).map { Set($0.split(separator: ",").map(String.init)) }
let retrievalOnly = arguments.contains("--retrieval-only")
let verbose = arguments.contains("--verbose")
arguments.removeAll { $0 == "--retrieval-only" || $0 == "--verbose" }
guard arguments.count == 2 else { fail("usage: AskEval QUESTIONS.jsonl NOTES.jsonl [--model NAME] [--library FOLDER]") }
let questions = readLines(arguments[0], as: Question.self)
let evalNotes = readLines(arguments[1], as: EvalNote.self)
let weights: LanguageModelWeights
do { weights = try LanguageModelWeights.named(modelName) } catch { fail(error.localizedDescription) }
guard EmbeddingModel.default.isInstalled() else { fail("run `voicenotes models install minilm` first") }
let evalIDs = Dictionary(evalNotes.map { (noteID($0.id), $0.id) }, uniquingKeysWith: { first, _ in first })

// MARK: - The library

let folder = URL(fileURLWithPath: libraryPath, isDirectory: true)
let stamp = folder.appendingPathComponent("built-from.txt")
let notesData = (try? Data(contentsOf: URL(fileURLWithPath: arguments[1]))) ?? Data()
var hash: UInt64 = 0xcbf2_9ce4_8422_2325
for byte in notesData { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
let expectedStamp = "\(String(hash, radix: 16)) \(weights.name)"
if (try? String(contentsOf: stamp, encoding: .utf8)) != expectedStamp {
  try? FileManager.default.removeItem(at: folder)
}
var configuration = LibraryConfiguration(folder: folder, languageModel: weights)
configuration.identifiesSpeakers = false
let library = try await Library.open(configuration)
if try await library.count() != evalNotes.count {
  let start = Date(timeIntervalSinceReferenceDate: 815_000_000)  // 2026-10-30
  for (index, note) in evalNotes.enumerated() {
    try await library.store.addTextNote(
      note.transcript, id: noteID(note.id), createdAt: start.addingTimeInterval(Double(index) * 3_600))
  }
}
let started = Date()
let lastStep = Mutex("")
let resumed = try await library.resumeUnfinished { progress in
  let step = "\(progress.stage.rawValue) \(evalIDs[progress.noteID] ?? progress.noteID)"
  if lastStep.withLock({ last in
    defer { last = step }
    return last != step
  }) {
    print("  " + step)
  }
}
if !resumed.processed.isEmpty {
  print(
    String(format: "built the library: %d notes in %.0f s", resumed.processed.count, Date().timeIntervalSince(started)))
}
if !resumed.failures.isEmpty { fail("\(resumed.failures.count) notes failed: \(resumed.failures[0].message)") }
try expectedStamp.write(to: stamp, atomically: true, encoding: .utf8)

// MARK: - Retrieval

func matches(_ text: String, _ keywords: [String]) -> Bool {
  let folded = text.lowercased()
  return keywords.allSatisfy { entry in entry.split(separator: "|").contains { folded.contains($0.lowercased()) } }
}

let answerable = questions.filter { !$0.notes.isEmpty }
print("\nretrieval recall@5 over \(answerable.count) answerable questions")
var recalls: [SearchMode: Double] = [:]
for mode in [SearchMode.keyword, .semantic, .hybrid] {
  var total = 0.0
  for question in answerable {
    let results = (try? await library.search(question.question, mode: mode, limit: 5)) ?? []
    let found = Set(results.compactMap { evalIDs[$0.note.id] })
    total += Double(question.notes.filter(found.contains).count) / Double(question.notes.count)
    if verbose, !Set(question.notes).isSubset(of: found) {
      print(
        "    \(mode.rawValue) missed \(question.id), found \(results.compactMap { evalIDs[$0.note.id] }.joined(separator: ","))"
      )
    }
  }
  recalls[mode] = total / Double(answerable.count)
  print(String(format: "  %-8@ %.3f", mode.rawValue, recalls[mode]!))
}
// Keyword search with any telling word (BM25 with word rarity): a fairer baseline for questions.
var anyWord = 0.0
for question in answerable {
  let results = (try? await library.store.search(question.question, limit: 5, matchingAnyWord: true)) ?? []
  let found = Set(results.compactMap { evalIDs[$0.note.id] })
  anyWord += Double(question.notes.filter(found.contains).count) / Double(question.notes.count)
}
print(String(format: "  keyword, any word %.3f", anyWord / Double(answerable.count)))
// What the assistant shows the model before it answers: its own search, filtered to the notes
// about the question and cut to its excerpt count.
func shownExcerpts(for question: Question, in library: Library) async throws -> [NoteCitation] {
  let book = CitationBook()
  let arguments = try SearchNotesTool.Arguments(
    GeneratedContent(properties: ["query": question.question, "scope": "all"]))
  _ = try await SearchNotesTool(library: library, book: book).call(arguments: arguments)
  return book.all
}
var shownRecall = 0.0
for question in answerable {
  let shown = try await shownExcerpts(for: question, in: library).compactMap { evalIDs[$0.noteID] }
  shownRecall += Double(question.notes.filter(shown.contains).count) / Double(question.notes.count)
  if verbose, !Set(question.notes).isSubset(of: shown) {
    print("    shown missed \(question.id), shown \(shown.joined(separator: ","))")
  }
}
print(String(format: "  shown to the assistant %.3f", shownRecall / Double(answerable.count)))
if let dump = dumpPath {
  var lines: [String] = []
  for question in questions {
    for excerpt in try await shownExcerpts(for: question, in: library) {
      let record: [String: Any] = [
        "question": question.id, "text": question.question, "note": evalIDs[excerpt.noteID] ?? "",
        "excerpt": excerpt.text, "answers": question.notes.contains(evalIDs[excerpt.noteID] ?? ""),
      ]
      lines.append(String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self))
    }
  }
  try lines.joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
}
// With --verbose: where each answering note ranks by any word and by meaning (first 50 each).
if verbose {
  for question in answerable {
    let byWord = ((try? await library.store.search(question.question, limit: 50, matchingAnyWord: true)) ?? [])
      .compactMap { evalIDs[$0.note.id] }
    let byMeaning = ((try? await library.search(question.question, mode: .semantic, limit: 50)) ?? [])
      .compactMap { evalIDs[$0.note.id] }
    let ranks = question.notes.map { id in
      "\(id) any word \(byWord.firstIndex(of: id).map { String($0 + 1) } ?? "-"), meaning \(byMeaning.firstIndex(of: id).map { String($0 + 1) } ?? "-")"
    }
    print("    \(question.id) \(ranks.joined(separator: "; "))")
  }
}
if retrievalOnly { exit(0) }

// MARK: - Answers

print("\nanswers with \(weights.name)")
var correct = 0
var citedRight = 0
var correctAndCited = 0
var abstained = 0
var falseAbstentions = 0
var seconds: [Double] = []
for question in questions where onlyIDs?.contains(question.id) ?? true {
  let assistant = NoteAssistant(library: library)
  let began = Date()
  let answer: NoteAnswer
  do {
    answer = try await assistant.ask(question.question)
  } catch {
    print("  \(question.id) error: \(error.localizedDescription)")
    continue
  }
  seconds.append(Date().timeIntervalSince(began))
  let cited = Set(answer.citations.compactMap { evalIDs[$0.noteID] })
  var verdict: String
  if question.notes.isEmpty {
    let ok = answer.isAbstention && answer.citations.isEmpty
    if ok { abstained += 1 }
    verdict = ok ? "abstained" : "ANSWERED"
  } else {
    let right = matches(answer.text, question.keywords) && !cited.isDisjoint(with: question.notes)
    let citationsRight = !cited.isEmpty && cited.isSubset(of: Set(question.notes))
    if right { correct += 1 }
    if citationsRight { citedRight += 1 }
    if right, citationsRight { correctAndCited += 1 }
    if answer.isAbstention { falseAbstentions += 1 }
    verdict = (right ? "correct" : "WRONG") + (citationsRight ? ", cited right" : ", CITED WRONG")
  }
  let flat = answer.text.replacingOccurrences(of: "\n", with: " ")
  print(
    String(
      format: "  %@ %-12@ %5.1f s  %@ | %@ | cites %@", question.id, question.kind, seconds.last!, verdict, flat,
      cited.sorted().joined(separator: ",")))
}
let unanswerable = questions.count - answerable.count
seconds.sort()
print("\nsummary (\(weights.name), \(questions.count) questions)")
print(
  String(
    format: "  recall@5: keyword %.3f, semantic %.3f, hybrid %.3f", recalls[.keyword]!, recalls[.semantic]!,
    recalls[.hybrid]!))
print(
  String(
    format: "  answer correct: %d/%d (%.0f%%)", correct, answerable.count,
    100 * Double(correct) / Double(answerable.count)))
print(
  String(
    format: "  citations correct: %d/%d (%.0f%%)", citedRight, answerable.count,
    100 * Double(citedRight) / Double(answerable.count)))
print(
  String(
    format: "  correct with correct citations (the issue's measure): %d/%d (%.0f%%)", correctAndCited,
    answerable.count, 100 * Double(correctAndCited) / Double(answerable.count)))
print(
  String(
    format: "  abstained when unanswerable: %d/%d (%.0f%%); abstained when answerable: %d", abstained, unanswerable,
    100 * Double(abstained) / Double(max(unanswerable, 1)), falseAbstentions))
if !seconds.isEmpty { print(String(format: "  seconds per question: median %.1f", seconds[seconds.count / 2])) }
