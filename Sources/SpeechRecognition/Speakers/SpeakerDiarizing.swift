/// Something that finds who spoke when in a recording: the seam between the app and the
/// diarization engine, so the logic around it can be tested with a stand-in.
public protocol SpeakerDiarizing: Sendable {
  /// Finds the speaker turns in `samples` (16 kHz mono), with `speakerCount` speakers when given
  /// and as many as the voices show otherwise. `progress` gets the fraction done, 0 to 1.
  func diarize(
    _ samples: [Float], speakerCount: Int?, progress: @escaping @Sendable (Double) -> Void
  ) async throws -> SpeakerDiarization

  /// The voice embedding of `samples` (16 kHz mono), for comparing a voice with remembered ones.
  func embedding(of samples: [Float]) async throws -> SpeakerEmbedding
}
