/// What a custom language model asks of whisper.cpp while it decodes: text to favour and a
/// grammar to follow. ``WhisperContext`` turns it into a logits filter and grammar elements.
struct WhisperSteering: Sendable, Hashable {
  /// Text whose tokens are favoured: at a word start its first token, and once part of it has been
  /// written, the tokens that continue it.
  struct Bias: Sendable, Hashable {
    /// The text, as it should be written (a word, a name or a phrase).
    var text: String
    /// Added to the logits of tokens that start `text` at a word start. Texts that are one token
    /// (common words) get none: favouring them would change ordinary speech.
    var first: Float
    /// Added to the logits of tokens that continue `text` once its first `minimumPrefix`
    /// characters (not counting the leading space) have been written.
    var continuation: Float
    /// How much of `text` must be written before its continuation is favoured.
    var minimumPrefix: Int
  }

  /// The texts to favour.
  var biases: [Bias] = []
  /// When set, only this grammar's commands, one or more in a row, may be written.
  var grammar: CommandGrammar?
  /// With a grammar: whether the decode may end only on a whole command (final results), or also
  /// part-way through one (volatile results of speech still going on).
  var requiresCompleteCommand = true
}
