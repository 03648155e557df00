package io.ragsearch.sim.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;

/** A condition's lastTransitionTime moves only when its status does, as a kubelet keeps it. */
class PodStatusViewTest {

    private static final Instant T0 = Instant.parse("2026-12-06T15:00:00Z");
    private static final Instant T1 = Instant.parse("2026-12-06T15:01:00Z");
    private static final Instant T2 = Instant.parse("2026-12-06T15:02:00Z");

    private static PodStatus status(String ready) {
        return new PodStatusBuilder()
                .addNewCondition().withType("PodScheduled").withStatus("True").endCondition()
                .addNewCondition().withType("Ready").withStatus(ready).endCondition()
                .build();
    }

    private static String since(PodStatus s, String type) {
        return s.getConditions().stream().filter(c -> type.equals(c.getType())).map(PodCondition::getLastTransitionTime)
                .findFirst().orElseThrow();
    }

    @Test
    void readyKeepsTheTimeItTurnedTrue() {
        PodStatus first = status("False");
        PodStatusView.keepTransitions(first, null, T0);
        assertEquals(T0.toString(), since(first, "Ready"));
        PodStatus ready = status("True");
        PodStatusView.keepTransitions(ready, first, T1);
        assertEquals(T1.toString(), since(ready, "Ready"), "False → True is a transition");
        assertEquals(T0.toString(), since(ready, "PodScheduled"), "unchanged: the first time stays");
        PodStatus later = status("True");
        PodStatusView.keepTransitions(later, ready, T2);
        assertEquals(T1.toString(), since(later, "Ready"), "a later write of the same status keeps it");
    }

    @Test
    void aConditionWithItsOwnTimeKeepsIt() {
        PodStatus next = status("True");
        next.getConditions().add(new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("PodResizeInProgress")
                .withStatus("True").withLastTransitionTime(T2.toString()).build());
        PodStatusView.keepTransitions(next, status("True"), T1);
        assertEquals(T2.toString(), since(next, "PodResizeInProgress"));
    }
}
