import CWhisper
import Foundation

/// The logits filter a ``WhisperSteering`` becomes: it raises the logits of tokens that start or
/// continue the favoured texts and, with a grammar, keeps the decoder from ending part-way through
/// a command.
///
/// whisper.cpp calls the filter from several threads at once (one per beam), so everything here
/// is computed up front and only read while decoding.
final class WhisperLogitsFilter: @unchecked Sendable {
  /// One way of writing a favoured text, as UTF-8 bytes with a leading space.
  private struct Variant {
    /// The bytes, starting with a space (tokens that start a word do).
    let bytes: [UInt8]
    /// Tokens that continue the text after its first `offset` bytes, by offset.
    let continuations: [Int: [Int32]]
    /// The bias for continuing tokens.
    let continuation: Float
    /// The shortest written part (in bytes, the space included) after which it is continued.
    let minimumPrefix: Int
  }

  /// The grammar's elements for whisper.cpp, when the steering restricts.
  let grammar: WhisperGrammar?
  private let commands: CommandGrammar?
  private let requiresCompleteCommand: Bool
  /// Token bytes by id, for the text tokens (ids below end-of-text).
  private let vocabulary: WhisperVocabulary
  private let firstTokenBias: [Int32: Float]
  private let variants: [Variant]
  /// The longest variant, in bytes: no more of the written text than this is ever compared.
  private let longestVariant: Int

  /// The penalty whisper.cpp subtracts from tokens the grammar rejects, and this filter from an
  /// early end of text.
  static let grammarPenalty: Float = 100

  /// Prepares the filter for `steering`; `tokenize` is whisper.cpp's tokenizer.
  init(steering: WhisperSteering, vocabulary: WhisperVocabulary, tokenize: (String) -> [Int32]) {
    self.vocabulary = vocabulary
    grammar = steering.grammar.flatMap(WhisperGrammar.init)
    commands = grammar == nil ? nil : steering.grammar
    requiresCompleteCommand = steering.requiresCompleteCommand
    var first: [Int32: Float] = [:]
    var variants: [Variant] = []
    var seen: Set<[UInt8]> = []
    for bias in steering.biases {
      for spelling in Self.spellings(of: bias.text) {
        let bytes = Array((" " + spelling).utf8)
        guard bytes.count > 1, seen.insert(bytes).inserted else { continue }
        // A text that is one token is a common word; only longer ones get a first-token bias.
        let tokens = tokenize(" " + spelling)
        if bias.first > 0, tokens.count > 1, vocabulary.id(of: bytes[...]) == nil {
          var starts = Set([tokens[0]])
          for end in stride(from: min(4, bytes.count), to: min(bytes.count, vocabulary.longestToken + 1), by: 1) {
            if let id = vocabulary.id(of: bytes[..<end]) { starts.insert(id) }
          }
          for id in starts { first[id] = max(first[id] ?? 0, bias.first) }
        }
        guard bias.continuation > 0 else { continue }
        let minimumPrefix = 1 + max(bias.minimumPrefix, 1)
        var continuations: [Int: [Int32]] = [:]
        for offset in minimumPrefix..<max(bytes.count, minimumPrefix) {
          for end in (offset + 1)...min(bytes.count, offset + vocabulary.longestToken) {
            if let id = vocabulary.id(of: bytes[offset..<end]) { continuations[offset, default: []].append(id) }
          }
        }
        variants.append(
          Variant(
            bytes: bytes, continuations: continuations, continuation: bias.continuation, minimumPrefix: minimumPrefix))
      }
    }
    firstTokenBias = first
    self.variants = variants
    longestVariant = variants.map(\.bytes.count).max() ?? 0
  }

  /// Adjusts `logits` for the next token after `tokens` (the decoder's sequence so far).
  func filter(tokens: UnsafeBufferPointer<whisper_token_data>, logits: UnsafeMutablePointer<Float>) {
    let endOfText = vocabulary.endOfText
    var boosts = firstTokenBias
    if !variants.isEmpty {
      let written = writtenTail(of: tokens, atLeast: longestVariant)
      for variant in variants {
        var offset = min(variant.bytes.count - 1, written.count)
        while offset >= variant.minimumPrefix {
          if let ids = variant.continuations[offset], written.suffix(offset).elementsEqual(variant.bytes[..<offset]) {
            for id in ids { boosts[id] = max(boosts[id] ?? 0, variant.continuation) }
          }
          offset -= 1
        }
      }
    }
    for (id, boost) in boosts where id < endOfText { logits[Int(id)] += boost }
    if let commands, requiresCompleteCommand {
      let text = String(decoding: writtenTail(of: tokens, atLeast: .max), as: UTF8.self)
      if commands.commands(matching: text) == nil { logits[Int(endOfText)] -= Self.grammarPenalty }
    }
  }

  /// The last bytes the decoder wrote (text tokens only), at least `count` of them when there are.
  private func writtenTail(of tokens: UnsafeBufferPointer<whisper_token_data>, atLeast count: Int) -> [UInt8] {
    var pieces: [[UInt8]] = []
    var total = 0
    for token in tokens.reversed() where token.id < vocabulary.endOfText {
      let bytes = vocabulary.bytes(of: token.id)
      pieces.append(bytes)
      total += bytes.count
      if total >= count { break }
    }
    return pieces.reversed().flatMap { $0 }
  }

  /// The ways a text may be written: as given, and with its first letter in the other case.
  private static func spellings(of text: String) -> [String] {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let first = trimmed.first else { return [] }
    let rest = trimmed.dropFirst()
    var spellings = [trimmed]
    for variant in [first.uppercased() + rest, first.lowercased() + rest] where !spellings.contains(variant) {
      spellings.append(variant)
    }
    return spellings
  }
}

/// The C callback: runs on whisper.cpp's decoding threads, at file scope so it belongs to no actor.
func whisperFilterLogits(
  _ context: OpaquePointer?, _ state: OpaquePointer?, _ tokens: UnsafePointer<whisper_token_data>?, _ count: Int32,
  _ logits: UnsafeMutablePointer<Float>?, _ userData: UnsafeMutableRawPointer?
) {
  guard let logits, let userData else { return }
  let filter = Unmanaged<WhisperLogitsFilter>.fromOpaque(userData).takeUnretainedValue()
  filter.filter(tokens: UnsafeBufferPointer(start: tokens, count: Int(max(count, 0))), logits: logits)
}
