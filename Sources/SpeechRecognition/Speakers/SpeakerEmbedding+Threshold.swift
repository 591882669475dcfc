extension SpeakerEmbedding {
  /// The cosine similarity (``similarity(to:)``) at or above which two CAM++ embeddings are taken
  /// for the same voice: what ``SpeakerDiarizer`` merges clusters at, and what an app should
  /// require before giving a remembered name to a voice.
  ///
  /// Chosen on development data, not on the test conversations: espeak-ng voices (the same voice
  /// saying different sentences scored 0.88 to 0.94; different voices at most 0.51) and the
  /// pocketsphinx recordings (same reader 0.77 to 0.93, different people at most 0.25). 0.6 sits
  /// between the classes, nearer the different-voice side because short or noisy recordings of
  /// one voice score lower than long clean ones.
  public static let sameSpeakerThreshold = 0.6
}
