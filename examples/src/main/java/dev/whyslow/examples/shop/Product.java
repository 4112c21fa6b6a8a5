package dev.whyslow.examples.shop;

import java.util.List;

/**
 * One product of the catalog.
 *
 * @param id index in the catalog, from 0
 * @param name display name, e.g. {@code Classic Navy Linen Shirt}
 * @param tokens the lower-case words of the name, as the search index keys them
 * @param noun the product's noun, e.g. {@code shirt}: its category for tax and related products
 * @param priceCents list price in cents
 * @param ratings customer ratings, 1 to 5
 */
public record Product(
    int id, String name, List<String> tokens, String noun, long priceCents, int[] ratings) {}
