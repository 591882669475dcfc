import Foundation
import SpeechRecognition

/// Diarization error rate: the share of reference speech that a diarization gets wrong, as
/// missed speech plus false alarms plus speaker confusion, over the seconds of reference speech.
///
/// The usual scoring: a collar (0.25 s by default) on each side of every reference turn's start
/// and end is not scored, since people disagree on boundaries by that much; hypothesis speakers
/// are mapped one-to-one onto reference speakers so that they overlap the most (found by trying
/// every mapping for up to 8 speakers, greedily beyond); overlapping speech counts once per
/// speaker. Time is scored in 10 ms steps.
public struct DiarizationErrorRate: Sendable, Equatable, CustomStringConvertible {
  /// Seconds of reference speech the hypothesis has no speaker for.
  public var missed: Double
  /// Seconds of hypothesis speech where the reference has none (or fewer speakers).
  public var falseAlarm: Double
  /// Seconds of reference speech given to the wrong speaker.
  public var confusion: Double
  /// Seconds of scored reference speech (per speaker).
  public var referenceSpeech: Double
  /// Each hypothesis speaker's mapped reference speaker.
  public var mapping: [Int: Int]

  /// The rate, 0 for a perfect diarization (it can exceed 1 with many false alarms).
  public var rate: Double {
    referenceSpeech > 0 ? (missed + falseAlarm + confusion) / referenceSpeech : (falseAlarm > 0 ? 1 : 0)
  }

  /// The rate as a percentage with its parts, for example "4.2% (miss 1.0 s, ...)".
  public var description: String {
    String(
      format: "%.1f%% (missed %.2f s, false alarm %.2f s, confusion %.2f s of %.2f s)", rate * 100, missed, falseAlarm,
      confusion, referenceSpeech)
  }

  /// The step time is scored in.
  static let step = 0.01

  /// Scores `hypothesis` against `reference`, leaving `collar` seconds unscored on each side of
  /// every reference boundary.
  public init(reference: [SpeakerTurn], hypothesis: [SpeakerTurn], collar: Double = 0.25) {
    let end = (reference + hypothesis).map(\.end).max() ?? 0
    let frames = Int((end / Self.step).rounded(.up)) + 1
    func frame(_ time: Double) -> Int { max(0, min(frames, Int((time / Self.step).rounded()))) }
    var scored = [Bool](repeating: true, count: frames)
    for turn in reference {
      for boundary in [turn.start, turn.end] {
        for index in frame(boundary - collar)..<frame(boundary + collar) { scored[index] = false }
      }
    }
    let referenceSpeakers = Array(Set(reference.map(\.speaker))).sorted()
    let hypothesisSpeakers = Array(Set(hypothesis.map(\.speaker))).sorted()
    func activity(_ turns: [SpeakerTurn], _ speakers: [Int]) -> [[Bool]] {
      var active = [[Bool]](repeating: [Bool](repeating: false, count: frames), count: speakers.count)
      for turn in turns {
        guard let row = speakers.firstIndex(of: turn.speaker) else { continue }
        for index in frame(turn.start)..<max(frame(turn.start), frame(turn.end)) { active[row][index] = true }
      }
      return active
    }
    let referenceActive = activity(reference, referenceSpeakers)
    let hypothesisActive = activity(hypothesis, hypothesisSpeakers)
    var overlap = [[Double]](
      repeating: [Double](repeating: 0, count: referenceSpeakers.count), count: hypothesisSpeakers.count)
    var missed = 0.0
    var falseAlarm = 0.0
    var speech = 0.0
    var matchedEither = 0.0
    for index in 0..<frames where scored[index] {
      let inReference = referenceActive.indices.filter { referenceActive[$0][index] }
      let inHypothesis = hypothesisActive.indices.filter { hypothesisActive[$0][index] }
      speech += Double(inReference.count)
      missed += Double(max(0, inReference.count - inHypothesis.count))
      falseAlarm += Double(max(0, inHypothesis.count - inReference.count))
      matchedEither += Double(min(inReference.count, inHypothesis.count))
      for h in inHypothesis { for r in inReference { overlap[h][r] += 1 } }
    }
    let (pairs, correct) = Self.bestMapping(overlap)
    self.missed = missed * Self.step
    self.falseAlarm = falseAlarm * Self.step
    confusion = (matchedEither - correct) * Self.step
    referenceSpeech = speech * Self.step
    mapping = Dictionary(uniqueKeysWithValues: pairs.map { (hypothesisSpeakers[$0.0], referenceSpeakers[$0.1]) })
  }

  /// The one-to-one mapping of rows (hypothesis) onto columns (reference) with the most total
  /// overlap, and that total.
  static func bestMapping(_ overlap: [[Double]]) -> (pairs: [(Int, Int)], total: Double) {
    let rows = overlap.count
    let columns = overlap.first?.count ?? 0
    guard rows > 0, columns > 0 else { return ([], 0) }
    if min(rows, columns) <= 8 && max(rows, columns) <= 10 {
      var best: (pairs: [(Int, Int)], total: Double) = ([], -1)
      var used = [Bool](repeating: false, count: columns)
      var chosen: [(Int, Int)] = []
      func search(_ row: Int, _ total: Double) {
        if row == rows {
          if total > best.total { best = (chosen, total) }
          return
        }
        search(row + 1, total)  // this hypothesis speaker maps to no one
        for column in 0..<columns where !used[column] && overlap[row][column] > 0 {
          used[column] = true
          chosen.append((row, column))
          search(row + 1, total + overlap[row][column])
          chosen.removeLast()
          used[column] = false
        }
      }
      search(0, 0)
      return (best.pairs, max(0, best.total))
    }
    var cells: [(Int, Int)] = []
    for row in 0..<rows { for column in 0..<columns where overlap[row][column] > 0 { cells.append((row, column)) } }
    cells.sort { overlap[$0.0][$0.1] > overlap[$1.0][$1.1] }
    var usedRows = Set<Int>()
    var usedColumns = Set<Int>()
    var pairs: [(Int, Int)] = []
    var total = 0.0
    for (row, column) in cells where !usedRows.contains(row) && !usedColumns.contains(column) {
      usedRows.insert(row)
      usedColumns.insert(column)
      pairs.append((row, column))
      total += overlap[row][column]
    }
    return (pairs, total)
  }
}
