package dev.crawler.frontier.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReleaseBudgetTest {

  @Test
  void spendsExactlyTheLimit() {
    ReleaseBudget budget = ReleaseBudget.of(2);
    assertThat(budget.tryAcquire()).isTrue();
    assertThat(budget.tryAcquire()).isTrue();
    assertThat(budget.tryAcquire()).isFalse();
    assertThat(budget.isSpent()).isTrue();
    budget.giveBack();
    assertThat(budget.isSpent()).isFalse();
    assertThat(budget.tryAcquire()).isTrue();
    assertThat(budget.released()).isEqualTo(2);
  }

  @Test
  void zeroMeansNoLimit() {
    ReleaseBudget budget = ReleaseBudget.of(0);
    for (int i = 0; i < 1000; i++) {
      assertThat(budget.tryAcquire()).isTrue();
    }
    assertThat(budget.isSpent()).isFalse();
    assertThat(budget.released()).isEqualTo(1000);
  }
}
