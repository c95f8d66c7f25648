package dev.crawler.common.usage;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Structured Field Dictionary, RFC 9651 section 3.2, parsed by the algorithm of section 4.2.2,
 * which fails on any input outside the grammar: a field that fails is malformed as a whole.
 *
 * <p>Only what the usage vocabulary reads is kept of each member: its kind, a Token's value, and
 * the member's text as written. Keys are case-sensitive and lower-case by grammar, so {@code
 * Train-AI=n} fails, as draft-ietf-aipref-vocab says it must. A key that repeats keeps its first
 * position and its last value (RFC 9651 section 4.2.2).
 *
 * <p>Stateless and thread-safe; the parse is linear in the input.
 */
final class StructuredDictionary {

  /** The kind of a member's value. */
  enum Kind {
    INTEGER,
    DECIMAL,
    STRING,
    TOKEN,
    BYTE_SEQUENCE,
    BOOLEAN,
    DATE,
    DISPLAY_STRING,
    INNER_LIST
  }

  /**
   * A member's value.
   *
   * @param kind the value's kind (a key without a value is the Boolean true)
   * @param token the Token, when the kind is {@link Kind#TOKEN}; empty otherwise
   * @param text the value and its parameters as written; for a key without a value, its parameters
   *     only (often empty)
   */
  record Member(Kind kind, String token, String text) {}

  /** Why a field is not a Dictionary, and where. */
  static final class MalformedFieldException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedFieldException(String message, int position) {
      super(message + " at character " + position);
    }
  }

  private final String input;
  private int at;

  private StructuredDictionary(String input) {
    this.input = input;
  }

  /**
   * The Dictionary a field value holds, its members in order.
   *
   * @param field the field value; repeated field lines joined with ", " (RFC 9651 section 4.2)
   * @throws MalformedFieldException when the value is not a Dictionary
   */
  static Map<String, Member> parse(String field) throws MalformedFieldException {
    return new StructuredDictionary(field).dictionary();
  }

  private Map<String, Member> dictionary() throws MalformedFieldException {
    for (int i = 0; i < input.length(); i++) {
      if (input.charAt(i) > 0x7E) {
        throw new MalformedFieldException("not ASCII", i);
      }
    }
    Map<String, Member> members = new LinkedHashMap<>();
    skipSpaces();
    while (more()) {
      String key = key();
      Member member;
      if (peek() == '=') {
        at++;
        member = itemOrInnerList();
      } else {
        int start = at;
        parameters();
        member = new Member(Kind.BOOLEAN, "", input.substring(start, at));
      }
      members.put(key, member);
      skipOws();
      if (!more()) {
        break;
      }
      if (input.charAt(at) != ',') {
        throw new MalformedFieldException("expected ','", at);
      }
      at++;
      skipOws();
      if (!more()) {
        throw new MalformedFieldException("trailing ','", at);
      }
    }
    skipSpaces();
    if (more()) {
      throw new MalformedFieldException("unexpected character", at);
    }
    return Collections.unmodifiableMap(members);
  }

  private Member itemOrInnerList() throws MalformedFieldException {
    int start = at;
    if (peek() == '(') {
      innerList();
      return new Member(Kind.INNER_LIST, "", input.substring(start, at));
    }
    Kind kind = bareItem();
    String token = kind == Kind.TOKEN ? input.substring(start, at) : "";
    parameters();
    return new Member(kind, token, input.substring(start, at));
  }

  private void innerList() throws MalformedFieldException {
    at++; // '('
    while (more()) {
      skipSpaces();
      if (peek() == ')') {
        at++;
        parameters();
        return;
      }
      bareItem();
      parameters();
      char next = peek();
      if (next != ' ' && next != ')') {
        throw new MalformedFieldException("expected ' ' or ')' in inner list", at);
      }
    }
    throw new MalformedFieldException("unterminated inner list", at);
  }

  private void parameters() throws MalformedFieldException {
    while (peek() == ';') {
      at++;
      skipSpaces();
      key();
      if (peek() == '=') {
        at++;
        bareItem();
      }
    }
  }

  private String key() throws MalformedFieldException {
    char first = peek();
    if (!isLcAlpha(first) && first != '*') {
      throw new MalformedFieldException("expected a key (a-z or '*')", at);
    }
    int start = at;
    while (more() && isKeyChar(input.charAt(at))) {
      at++;
    }
    return input.substring(start, at);
  }

  private Kind bareItem() throws MalformedFieldException {
    char first = peek();
    if (first == '-' || isDigit(first)) {
      return number() ? Kind.DECIMAL : Kind.INTEGER;
    }
    if (first == '"') {
      string();
      return Kind.STRING;
    }
    if (isAlpha(first) || first == '*') {
      token();
      return Kind.TOKEN;
    }
    switch (first) {
      case ':' -> {
        byteSequence();
        return Kind.BYTE_SEQUENCE;
      }
      case '?' -> {
        bool();
        return Kind.BOOLEAN;
      }
      case '@' -> {
        at++;
        if (number()) {
          throw new MalformedFieldException("a date is an integer", at);
        }
        return Kind.DATE;
      }
      case '%' -> {
        displayString();
        return Kind.DISPLAY_STRING;
      }
      default -> throw new MalformedFieldException("expected a value", at);
    }
  }

  /** An Integer or Decimal (RFC 9651 section 4.2.4); true for a Decimal. */
  private boolean number() throws MalformedFieldException {
    if (peek() == '-') {
      at++;
    }
    if (!isDigit(peek())) {
      throw new MalformedFieldException("expected a digit", at);
    }
    int digits = 0;
    int fraction = -1;
    while (more()) {
      char c = input.charAt(at);
      if (isDigit(c)) {
        digits++;
        if (fraction >= 0) {
          fraction++;
        }
      } else if (c == '.' && fraction < 0) {
        if (digits > 12) {
          throw new MalformedFieldException("decimal too long", at);
        }
        fraction = 0;
      } else {
        break;
      }
      at++;
      if (fraction < 0 && digits > 15) {
        throw new MalformedFieldException("integer too long", at);
      }
      if (fraction >= 0 && digits + 1 > 16) {
        throw new MalformedFieldException("decimal too long", at);
      }
    }
    if (fraction == 0) {
      throw new MalformedFieldException("decimal ends with '.'", at);
    }
    if (fraction > 3) {
      throw new MalformedFieldException("more than 3 fractional digits", at);
    }
    return fraction > 0;
  }

  private void string() throws MalformedFieldException {
    at++; // '"'
    while (more()) {
      char c = input.charAt(at++);
      if (c == '\\') {
        if (!more()) {
          break;
        }
        char escaped = input.charAt(at++);
        if (escaped != '"' && escaped != '\\') {
          throw new MalformedFieldException("bad escape in string", at - 1);
        }
      } else if (c == '"') {
        return;
      } else if (c < 0x20 || c > 0x7E) {
        throw new MalformedFieldException("control character in string", at - 1);
      }
    }
    throw new MalformedFieldException("unterminated string", at);
  }

  private void token() {
    at++;
    while (more() && isTokenChar(input.charAt(at))) {
      at++;
    }
  }

  private void byteSequence() throws MalformedFieldException {
    at++; // ':'
    int end = input.indexOf(':', at);
    if (end < 0) {
      throw new MalformedFieldException("unterminated byte sequence", at);
    }
    for (int i = at; i < end; i++) {
      char c = input.charAt(i);
      if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=') {
        throw new MalformedFieldException("not base64", i);
      }
    }
    at = end + 1;
  }

  private void bool() throws MalformedFieldException {
    at++; // '?'
    char c = peek();
    if (c != '0' && c != '1') {
      throw new MalformedFieldException("a boolean is ?0 or ?1", at);
    }
    at++;
  }

  private void displayString() throws MalformedFieldException {
    at++; // '%'
    if (peek() != '"') {
      throw new MalformedFieldException("expected '\"' after '%'", at);
    }
    at++;
    ByteBuffer bytes = ByteBuffer.allocate(input.length());
    while (more()) {
      char c = input.charAt(at++);
      if (c < 0x20 || c > 0x7E) {
        throw new MalformedFieldException("control character in display string", at - 1);
      }
      if (c == '%') {
        if (at + 2 > input.length()
            || !isLowerHex(input.charAt(at))
            || !isLowerHex(input.charAt(at + 1))) {
          throw new MalformedFieldException("expected two lower-case hex digits", at);
        }
        bytes.put((byte) Integer.parseInt(input.substring(at, at + 2), 16));
        at += 2;
      } else if (c == '"') {
        bytes.flip();
        try {
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(bytes);
        } catch (CharacterCodingException e) {
          throw new MalformedFieldException("display string is not UTF-8", at);
        }
        return;
      } else {
        bytes.put((byte) c);
      }
    }
    throw new MalformedFieldException("unterminated display string", at);
  }

  private boolean more() {
    return at < input.length();
  }

  /** The next character, or NUL at the end (which no rule accepts). */
  private char peek() {
    return more() ? input.charAt(at) : '\0';
  }

  private void skipSpaces() {
    while (more() && input.charAt(at) == ' ') {
      at++;
    }
  }

  private void skipOws() {
    while (more() && (input.charAt(at) == ' ' || input.charAt(at) == '\t')) {
      at++;
    }
  }

  private static boolean isLcAlpha(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isAlpha(char c) {
    return isLcAlpha(c) || (c >= 'A' && c <= 'Z');
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLowerHex(char c) {
    return isDigit(c) || (c >= 'a' && c <= 'f');
  }

  private static boolean isKeyChar(char c) {
    return isLcAlpha(c) || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*';
  }

  /** tchar (RFC 9110 section 5.6.2), ':' or '/'. */
  private static boolean isTokenChar(char c) {
    return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~:/".indexOf(c) >= 0;
  }
}
