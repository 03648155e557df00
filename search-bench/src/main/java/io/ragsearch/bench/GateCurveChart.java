package io.ragsearch.bench;

import io.ragsearch.eval.GateCurve;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/** The gate's trade-off as a PNG (XChart, headless): kept, found in the top 5 and refused against the threshold. */
final class GateCurveChart {

    private GateCurveChart() {
    }

    static Path write(GateCurve curve, double chosenThreshold, Path directory) throws IOException {
        Files.createDirectories(directory);
        XYChart chart = new XYChartBuilder().width(800).height(480)
                .title("Gate trade-off, " + curve.set() + " (default threshold " + chosenThreshold + ")")
                .xAxisTitle("threshold").yAxisTitle("share of questions").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setYAxisMin(0.0).setYAxisMax(1.0);
        double[] x = curve.points().stream().mapToDouble(GateCurve.Point::threshold).toArray();
        chart.addSeries("answerable kept", x, curve.points().stream().mapToDouble(GateCurve.Point::kept).toArray());
        chart.addSeries("answerable found in top 5", x, curve.points().stream().mapToDouble(GateCurve.Point::hit5).toArray());
        chart.addSeries("unanswerable refused", x, curve.points().stream().mapToDouble(GateCurve.Point::refused).toArray());
        chart.addSeries("default threshold", new double[] {chosenThreshold, chosenThreshold}, new double[] {0, 1});
        Path file = directory.resolve(curve.set() + "-gate.png");
        String name = file.toString();
        BitmapEncoder.saveBitmap(chart, name.substring(0, name.length() - 4), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }
}
