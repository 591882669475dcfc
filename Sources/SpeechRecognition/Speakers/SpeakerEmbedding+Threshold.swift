extension SpeakerEmbedding {
  /// The cosine similarity (``similarity(to:)``) at or above which two CAM++ embeddings are taken
  /// for the same voice: what ``SpeakerDiarizer`` merges clusters of turns at, and what an app
  /// should require before giving a remembered name to a voice.
  ///
  /// Chosen on development recordings, not on the test conversations. Real people (the
  /// pocketsphinx test recordings, jfk.wav): one person's clips scored 0.53 to 0.93 against each
  /// other (the lowest for 1 s clips), different people at most 0.25. espeak-ng: one voice saying
  /// different sentences 0.87 to 0.94; voices of different variants and pitches 0.01 to 0.66,
  /// most below 0.5 (the synthesiser is the same, so some variants sound alike to the model).
  /// 0.5 keeps every real pair on the right side and separates espeak-ng voices that differ in
  /// variant and pitch.
  public static let sameSpeakerThreshold = 0.5
}
