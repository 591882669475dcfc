/// A module's analysis of live input: what ``SpeechAnalyzer`` drives while reading an input
/// sequence. Each module makes one per input sequence.
protocol LiveModuleAnalysis: Sendable {
  /// Takes the next stretch of input. A stretch that starts after the end of the previous one
  /// means the input skipped the audio between (a gap, which counts as silence).
  ///
  /// Returns quickly: slow work such as decoding runs apart from the input.
  func append(_ audio: LiveAudio) async

  /// Publishes final results for all audio up to `position` (everything so far when nil) and
  /// returns once they are published; analysis continues after it.
  func finalize(through position: Int?) async throws

  /// The input has ended: publishes final results for everything still pending, even a word cut
  /// off mid-way, and returns once they are published.
  func finish() async throws

  /// Stops at once, publishing nothing more.
  func cancel() async

  /// Drops the work and results still pending for audio that ends by `position`; analysis goes
  /// on as usual from there.
  func cancelAnalysis(before position: Int) async

  /// The earliest sample whose results may still change (pending or volatile), or nil when the
  /// results of all the audio given so far are final.
  var unsettledStart: Int? { get async }
}

extension LiveModuleAnalysis {
  /// Does nothing: an analysis that publishes each result as soon as it has it has nothing
  /// pending to drop.
  func cancelAnalysis(before position: Int) async {}
}
