import CWhisper
import Foundation

/// The text tokens of a loaded Whisper model: each token's bytes, and the token for given bytes.
///
/// Read once from the context (about 50,000 tokens, a few milliseconds) and then only read, from
/// any thread.
final class WhisperVocabulary: Sendable {
  /// The end-of-text token; every text token has a smaller id.
  let endOfText: Int32
  /// The most bytes any text token has: no longer run of bytes can be one token.
  let longestToken: Int
  private let tokens: [[UInt8]]
  private let ids: [[UInt8]: Int32]

  /// Reads the text tokens of `context`.
  init(context: OpaquePointer) {
    endOfText = whisper_token_eot(context)
    var tokens: [[UInt8]] = []
    var ids: [[UInt8]: Int32] = [:]
    tokens.reserveCapacity(Int(endOfText))
    for id in 0..<endOfText {
      var bytes: [UInt8] = []
      if let text = whisper_token_to_str(context, id) {
        bytes = Array(
          UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text)))
      }
      tokens.append(bytes)
      if !bytes.isEmpty, ids[bytes] == nil { ids[bytes] = id }
    }
    self.tokens = tokens
    self.ids = ids
    longestToken = tokens.map(\.count).max() ?? 0
  }

  /// The bytes of text token `id` (empty for any other id).
  func bytes(of id: Int32) -> [UInt8] {
    id >= 0 && id < endOfText ? tokens[Int(id)] : []
  }

  /// The text token whose bytes are exactly `bytes`, if there is one.
  func id(of bytes: ArraySlice<UInt8>) -> Int32? {
    bytes.count > longestToken ? nil : ids[Array(bytes)]
  }
}
