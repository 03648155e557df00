package io.ragsearch.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG plots of a bench run (XChart, headless). */
final class Charts {

    private Charts() {
    }

    /** One line per (corpus, rerank setting): y against the number of concurrent searches. */
    static void byConcurrency(Path file, String title, String yTitle, List<LoadCell> cells, ToDoubleFunction<LoadCell> y) throws IOException {
        XYChart chart = chart(title, "concurrent searches", yTitle);
        cells.stream().collect(Collectors.groupingBy(c -> c.corpus() + ", rerank " + c.rerank(), java.util.TreeMap::new,
                Collectors.toList())).forEach((name, series) -> chart.addSeries(name,
                series.stream().mapToDouble(LoadCell::concurrentSearches).toArray(), series.stream().mapToDouble(y).toArray()));
        save(chart, file);
    }

    /** Measured peak against the calibrated prediction, per rerank setting, for one corpus. */
    static void memory(Path file, String corpus, List<LoadCell> cells) throws IOException {
        XYChart chart = chart("Peak memory vs. prediction (" + corpus + ")", "concurrent searches", "MiB");
        cells.stream().filter(c -> c.corpus().equals(corpus)).collect(Collectors.groupingBy(LoadCell::rerank, java.util.TreeMap::new,
                Collectors.toList())).forEach((rerank, series) -> {
            double[] x = series.stream().mapToDouble(LoadCell::concurrentSearches).toArray();
            chart.addSeries("measured, rerank " + rerank, x, series.stream().mapToDouble(c -> c.peakBytes() / 1048576.0).toArray());
            chart.addSeries("predicted, rerank " + rerank, x, series.stream().mapToDouble(c -> c.predictedPeakBytes() / 1048576.0).toArray())
                    .setMarker(SeriesMarkers.NONE);
        });
        save(chart, file);
    }

    static void scaling(Path file, List<ScalingRun.Point> points) throws IOException {
        XYChart chart = chart("Scaling with corpus size (replicated statutes)", "corpus multiple", "seconds (build) / ms (search)");
        double[] x = points.stream().mapToDouble(ScalingRun.Point::multiple).toArray();
        chart.addSeries("index build, s", x, points.stream().mapToDouble(ScalingRun.Point::buildSeconds).toArray());
        chart.addSeries("search mean, ms", x, points.stream().mapToDouble(ScalingRun.Point::searchMeanMs).toArray());
        save(chart, file);
    }

    private static XYChart chart(String title, String x, String y) {
        XYChart chart = new XYChartBuilder().width(800).height(480).title(title).xAxisTitle(x).yAxisTitle(y).build();
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
        return chart;
    }

    private static void save(XYChart chart, Path file) throws IOException {
        String name = file.toString();
        BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                BitmapEncoder.BitmapFormat.PNG);
    }
}
