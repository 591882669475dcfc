import Foundation

/// The recordings of real people the conversations are made of: jfk.wav (John F. Kennedy), the
/// LibriVox utterances (one reader of Sense and Sensibility) and the "cards" utterances (one
/// speaker reading playing cards), both from Debian's pocketsphinx-testdata.
public enum RealSpeakers {
  /// Where pocketsphinx-testdata keeps its recordings.
  static let data = URL(fileURLWithPath: "/usr/share/pocketsphinx/test/data")
  /// LibriVox utterance `id` (such as "0870").
  public static func librivox(_ id: String) throws -> [Float] {
    try SpeakerConversation.read(data.appendingPathComponent("librivox/sense_and_sensibility_01_austen_64kb-\(id).wav"))
  }
  /// Cards utterance `id` (such as "005").
  public static func cards(_ id: String) throws -> [Float] {
    try SpeakerConversation.read(data.appendingPathComponent("cards/\(id).wav"))
  }
  /// jfk.wav.
  public static func jfk() throws -> [Float] { try SpeakerConversation.read(Fixtures.jfk) }
}
