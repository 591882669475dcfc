import Foundation
import Synchronization

extension CustomLanguageModelData {
  /// Produces phrase counts from templates such as `"Set background to <color>"`, where each
  /// `<class>` slot stands for every value of a class defined with ``define(className:values:)``.
  ///
  /// A template's count is the total for all of its expansions, split evenly across them (the first
  /// expansions take the remainder; when the count is smaller than the number of expansions, each
  /// expansion still gets 1). Class values may themselves contain slots of other classes.
  ///
  /// As an async sequence (``PhraseCountGenerator``) it yields those expansions; inserted into
  /// data, it is kept as templates, which the prepared model turns into a grammar. Unlike its base
  /// class it is `Sendable`: its classes and templates are kept behind a lock.
  public final class TemplatePhraseCountGenerator: PhraseCountGenerator, @unchecked Sendable {
    private let state: Mutex<TemplateGroup>

    /// Creates a generator with no classes and no templates.
    public override init() {
      state = Mutex(TemplateGroup())
      super.init()
    }

    /// Decodes a generator that ``encode(to:)`` wrote: its classes and templates.
    public required init(from decoder: any Decoder) throws {
      state = Mutex(try TemplateGroup(from: decoder))
      super.init()
    }

    /// Encodes the classes and templates.
    public override func encode(to encoder: any Encoder) throws {
      try templateGroup.encode(to: encoder)
    }

    /// Defines (or redefines) the class `className`, used as `<className>` in templates.
    public func define(className: String, values: [String]) {
      state.withLock { $0.classes[className] = values }
    }

    /// Adds a template whose `<class>` slots are expanded; `count` is the total for all expansions.
    public func insert(template: String, count: Int) {
      state.withLock { $0.templates.append(Template(template, count: count)) }
    }

    /// The templates added so far, in order.
    public var templates: [Template] { state.withLock { $0.templates } }

    /// The classes defined so far.
    public var templateClasses: [String: [String]] { state.withLock { $0.classes } }

    /// Every phrase the templates expand to, with its share of the template's count.
    ///
    /// Throws ``CustomLanguageModelError/undefinedTemplateClassName(className:template:)`` when a
    /// template names a class that is not defined.
    public func phraseCounts() throws -> [PhraseCount] {
      try Self.expand(templateGroup)
    }

    /// An iterator over the expansions of the templates and classes as they are now.
    public override func makeAsyncIterator() -> PhraseCountGenerator.Iterator {
      Iterator(templates: templates, templateClasses: templateClasses)
    }

    /// The classes and templates as one exportable group.
    var templateGroup: TemplateGroup { state.withLock { $0 } }

    private static func expand(_ group: TemplateGroup) throws -> [PhraseCount] {
      let expander = TemplateExpander(classes: group.classes)
      return try group.templates.flatMap { try expander.phraseCounts(for: $0) }
    }

    /// Yields the expansions of a set of templates, in order.
    public final class Iterator: PhraseCountGenerator.Iterator {
      private let group: TemplateGroup
      private var expansions: IndexingIterator<[PhraseCount]>?

      /// An iterator over the expansions of `templates` with `templateClasses`.
      public init(templates: [Template], templateClasses: [String: [String]]) {
        group = TemplateGroup(classes: templateClasses, templates: templates)
        super.init()
      }

      /// The next expansion, or nil after the last.
      ///
      /// - Throws: ``CustomLanguageModelError/undefinedTemplateClassName(className:template:)``
      ///   (on the first call) when a template names a class that is not defined.
      public override func next() async throws -> PhraseCount? {
        if expansions == nil { expansions = try TemplatePhraseCountGenerator.expand(group).makeIterator() }
        return expansions?.next()
      }
    }
  }
}
