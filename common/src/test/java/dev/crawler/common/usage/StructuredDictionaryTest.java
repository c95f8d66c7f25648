package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.common.usage.StructuredDictionary.MalformedFieldException;
import dev.crawler.common.usage.StructuredDictionary.Member;
import java.util.Map;
import java.util.StringJoiner;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StructuredDictionaryTest {

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // field                                      | members: key=KIND:token
        "train-ai=y, search=n                         | train-ai=TOKEN:y search=TOKEN:n",
        "'   train-ai=n  '                            | train-ai=TOKEN:n",
        "''                                           | ''",
        "a=1, b=-2.5, c=\"x\\\"y\", d=:AQID:, e=?0      | a=INTEGER b=DECIMAL c=STRING d=BYTE_SEQUENCE e=BOOLEAN",
        "f=@1659578233, g=%\"caf%c3%a9\", h=(y n);p=1 | f=DATE g=DISPLAY_STRING h=INNER_LIST",
        "bare, train-ai;x=1                           | bare=BOOLEAN train-ai=BOOLEAN",
        "train-ai=y;allow=n                           | train-ai=TOKEN:y",
        "train-ai=y,\tsearch=n                        | train-ai=TOKEN:y search=TOKEN:n",
        "*x=y, a.b_c-d*=tok/en:1                      | *x=TOKEN:y a.b_c-d*=TOKEN:tok/en:1",
        // a repeated key keeps its first place and its last value
        "search=y, train-ai=n, search=\"n\"             | search=STRING train-ai=TOKEN:n",
      })
  void parsesADictionary(String field, String expected) throws MalformedFieldException {
    assertThat(members(StructuredDictionary.parse(field))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "Train-AI=n", // keys are lower case
        "train-ai=y,", // trailing comma
        "train-ai=y search=n", // no comma
        "train-ai=", // no value
        "train-ai=\"n", // unterminated string
        "a=1.", // decimal ends with '.'
        "a=1.2345", // more than 3 fractional digits
        "a=1234567890123456", // integer over 15 digits
        "a=(y n", // unterminated inner list
        "a=?2",
        "a=@1.5", // a date is an integer
        "a=%\"%C3%A9\"", // display string hex is lower case
        "a=:not base64:",
        "train-ai=y;Allow=n", // parameter keys are lower case too
        "tráin=y", // not ASCII
        "=y",
        "a=y,,b=n",
      })
  void rejectsWhatIsNotADictionary(String field) {
    assertThatThrownBy(() -> StructuredDictionary.parse(field))
        .isInstanceOf(MalformedFieldException.class);
  }

  private static String members(Map<String, Member> members) {
    StringJoiner text = new StringJoiner(" ");
    members.forEach(
        (key, member) ->
            text.add(
                key
                    + "="
                    + member.kind()
                    + (member.token().isEmpty() ? "" : ":" + member.token())));
    return text.toString();
  }
}
