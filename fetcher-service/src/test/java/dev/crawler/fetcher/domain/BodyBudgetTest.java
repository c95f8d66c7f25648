package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BodyBudgetTest {

  @Test
  void reservesWhatFitsAndTakesBackWhatIsReleased() {
    BodyBudget budget = new BodyBudget(1000);

    assertThat(budget.tryReserve(600)).isTrue();
    assertThat(budget.hasRoomFor(400)).isTrue();
    assertThat(budget.hasRoomFor(401)).isFalse();
    assertThat(budget.tryReserve(401)).isFalse();
    assertThat(budget.used()).isEqualTo(600);

    budget.release(600);

    assertThat(budget.used()).isZero();
    assertThat(budget.tryReserve(1000)).isTrue();
  }

  @Test
  void aHeapsBudgetIsAQuarterOfIt() {
    assertThat(BodyBudget.ofHeap(2L << 30).capacity()).isEqualTo(512L << 20);
  }
}
